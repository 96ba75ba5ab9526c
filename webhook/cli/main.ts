// kruise-ts CLI composition root: `inject` and `validate`, offline, through the webhook's own handlers.
import { readFileSync } from 'node:fs';
import { offlineAdmission } from './admit.js';
import { decodeUtf8, describe, formatDocuments, InputError, parseDocuments, type KubeDocument, type OutputFormat } from './documents.js';
import { isWorkload, templateAsPod, withTemplate } from './workloads.js';

const usage = `usage:
  kruise-ts inject   -f FILE [-f FILE ...] [-o yaml|json]   print Pods and workload templates as a CREATE admission leaves them;
                                                            every other document passes through unchanged
  kruise-ts validate -f FILE [-f FILE ...]                  admit every object as a CREATE; one line per object
FILE may be - for standard input; YAML (multi-document) or JSON, UTF-8. Anchors and aliases may expand to at
most 8 times the input (at least 1 MB); duplicate keys, !!binary and __proto__ keys are refused.`;

interface Args { command: string; files: string[]; output: OutputFormat }

/** The arguments, or 'help' for -h/--help (printed to stdout, exit 0, like kubectl). */
function parseArgs(argv: string[]): Args | 'help' {
  const [command, ...rest] = argv;
  if (command === '-h' || command === '--help' || command === 'help') return 'help';
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
    } else if (a === '-h' || a === '--help') return 'help';
    else throw new InputError(`unknown argument ${JSON.stringify(a)}\n${usage}`);
  }
  if (args.files.length === 0) throw new InputError(`no input: give at least one -f FILE\n${usage}`);
  return args;
}

function readSource(file: string, stdin: Io['stdin']): string {
  const name = file === '-' ? 'standard input' : file;
  let bytes: string | Uint8Array;
  try {
    bytes = file === '-' ? stdin() : readFileSync(file);
  } catch (err) {
    throw new InputError(`cannot read ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return decodeUtf8(bytes, file);
}

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Standard input's bytes (decoded as UTF-8 here), or its text. */
  stdin: () => string | Uint8Array;
  /** Print the stack of an internal error too (the entrypoint sets it from KRUISE_TS_DEBUG). */
  debug?: boolean;
}

/**
 * Pods and workloads come out as admitted; every other document (Services, ConfigMaps, the SidecarSets themselves)
 * passes through unchanged and in place, so `kruise-ts inject -f all.yaml | kubectl apply -f -` applies all of it.
 */
async function inject(docs: KubeDocument[], output: OutputFormat, io: Io): Promise<number> {
  if (docs.length === 0) {
    io.stderr('warning: no documents in the input\n');
    return 0;
  }
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
    if (!pod) {
      out.push(doc);
      continue;
    }
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
  if (docs.length === 0) {
    io.stderr('no documents in the input\n');
    return 1;
  }
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

/**
 * Runs the CLI; returns the exit code: 0, 1 for input a person must fix (one line saying what and where), 2 for an
 * internal error (one line; its stack only with `io.debug`). Never throws.
 */
export async function runCli(argv: string[], io: Io): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args === 'help') {
      io.stdout(`${usage}\n`);
      return 0;
    }
    const docs = args.files.flatMap((f) => parseDocuments(readSource(f, io.stdin), f));
    return args.command === 'inject' ? await inject(docs, args.output, io) : await validate(docs, io);
  } catch (err) {
    if (err instanceof InputError) {
      io.stderr(`${err.message}\n`);
      return 1;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`kruise-ts: internal error: ${message.split('\n')[0]}\n`);
    if (io.debug && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
    return 2;
  }
}
