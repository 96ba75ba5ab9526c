// kruise-ts CLI composition root: `inject` and `validate`, offline, through the webhook's own handlers.
import { readFileSync } from 'node:fs';
import { offlineAdmission } from './admit.js';
import { describe, formatDocuments, InputError, parseDocuments, type KubeDocument, type OutputFormat } from './documents.js';
import { isWorkload, templateAsPod, withTemplate } from './workloads.js';

const usage = `usage:
  kruise-ts inject   -f FILE [-f FILE ...] [-o yaml|json]   print Pods and workload templates as a CREATE admission leaves them
  kruise-ts validate -f FILE [-f FILE ...]                  admit every object as a CREATE; one line per object
FILE may be - for standard input; YAML (multi-document) or JSON.`;

interface Args { command: string; files: string[]; output: OutputFormat }

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (command !== 'inject' && command !== 'validate') throw new InputError(command ? `unknown command ${JSON.stringify(command)}\n${usage}` : usage);
  const args: Args = { command, files: [], output: 'yaml' };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new InputError(`${a} needs a value\n${usage}`);
      return v;
    };
    if (a === '-f' || a === '--filename') args.files.push(value());
    else if (a.startsWith('--filename=')) args.files.push(a.slice('--filename='.length));
    else if (a === '-o' || a === '--output') {
      const o = value();
      if (o !== 'yaml' && o !== 'json') throw new InputError(`-o must be yaml or json, not ${JSON.stringify(o)}`);
      args.output = o;
    } else if (a === '-h' || a === '--help') throw new InputError(usage);
    else throw new InputError(`unknown argument ${JSON.stringify(a)}\n${usage}`);
  }
  if (args.files.length === 0) throw new InputError(`no input: give at least one -f FILE\n${usage}`);
  return args;
}

function readSource(file: string, stdin: () => string): string {
  try {
    return file === '-' ? stdin() : readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read ${file === '-' ? 'standard input' : file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export interface Io { stdout: (s: string) => void; stderr: (s: string) => void; stdin: () => string }

async function inject(docs: KubeDocument[], output: OutputFormat, io: Io): Promise<number> {
  const admission = offlineAdmission(docs);
  const out: KubeDocument[] = [];
  let failed = false;
  // Every SidecarSet first, wherever it stands in the input: a pod listed before its SidecarSet is still injected.
  for (const doc of docs.filter((d) => d.kind === 'SidecarSet')) {
    const v = await admission.createUnvalidated(doc);
    if (!v.allowed) io.stderr(`warning: ${describe(doc)} ignored: ${v.reason}\n`);
    else if (v.warning) io.stderr(`warning: ${describe(doc)} would be refused by validation, injected anyway: ${v.warning}\n`);
  }
  for (const doc of docs) {
    const pod = doc.kind === 'Pod' ? doc : isWorkload(doc) ? templateAsPod(doc) : undefined;
    if (!pod) continue;
    const v = await admission.create(pod as KubeDocument);
    if (!v.allowed) {
      io.stderr(`error: ${describe(doc)} would be refused: ${v.reason}\n`);
      failed = true;
      continue;
    }
    out.push(doc.kind === 'Pod' ? v.object : withTemplate(doc, v.object));
  }
  if (out.length) io.stdout(formatDocuments(out, output));
  return failed ? 1 : 0;
}

async function validate(docs: KubeDocument[], io: Io): Promise<number> {
  const admission = offlineAdmission(docs);
  let denied = 0;
  for (const doc of docs) {
    const v = await admission.create(doc);
    if (v.allowed) io.stdout(`allowed ${describe(doc)}\n`);
    else {
      denied++;
      io.stdout(`denied ${describe(doc)}: ${v.reason}\n`);
    }
  }
  return denied ? 1 : 0;
}

/** Runs the CLI; returns the exit code. Never throws for bad input. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  try {
    const args = parseArgs(argv);
    const docs = args.files.flatMap((f) => parseDocuments(readSource(f, io.stdin), f));
    return args.command === 'inject' ? await inject(docs, args.output, io) : await validate(docs, io);
  } catch (err) {
    if (err instanceof InputError) {
      io.stderr(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
