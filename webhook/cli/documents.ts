// Reading and writing the manifests the offline CLI works on: multi-document YAML or JSON, from files or stdin.
import yaml from 'js-yaml';
import { AliasBudgetError, aliasBudget, aliasListener } from './aliases.js';
import { printBudget, shapeProblem, unsharedCopy } from './shape.js';
import { kubectlSchema } from './yaml-schema.js';

export interface KubeDocument {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; generateName?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

/** Thrown for input a person must fix; the CLI prints the message and exits 1. */
export class InputError extends Error {
  override name = 'InputError';
}

/** Decodes a source's bytes as UTF-8 (dropping a byte-order mark), refusing bytes that are not. */
export function decodeUtf8(bytes: string | Uint8Array, source: string): string {
  if (typeof bytes === 'string') return bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${source}: not UTF-8 text (Kubernetes manifests are UTF-8; convert it, e.g. with iconv)`);
  }
}

function parseError(err: unknown, source: string): InputError {
  if (err instanceof AliasBudgetError) return new InputError(`${source}: ${err.message}`);
  // js-yaml recurses once per nesting level; running out of stack is what an over-deep document looks like.
  if (err instanceof RangeError) return new InputError(`${source}: nesting too deep to parse (Kubernetes objects nest a few dozen levels)`);
  let message = (err as Error).message.split('\n')[0]!;
  if (message.includes('tag:yaml.org,2002:binary')) message += ': !!binary is not supported; give the value as a (base64) string';
  return new InputError(`${source}: not valid YAML or JSON: ${message}`);
}

/**
 * Parses one source's text into its documents, in order. A `List` (as `kubectl get -o json` prints) is flattened
 * into its items; empty YAML documents are dropped. Every document and List item is checked (shapeProblem,
 * unsharedCopy), and refused with its position: `document 2` (counting from 1 in the stream), `document 1, item 3`.
 * Duplicate keys are refused, as kubectl refuses them.
 */
export function parseDocuments(text: string, source: string): KubeDocument[] {
  let docs: unknown[];
  try {
    // js-yaml 4.3 stops at 100 levels and 10,000 merge keys by default; the CLI bounds both itself (a RangeError
    // below, unsharedCopy's maxDepth, the alias budget, with their own messages), so those limits are lifted.
    docs = yaml.loadAll(text, undefined, { schema: kubectlSchema, maxDepth: Infinity, maxTotalMergeKeys: Infinity, listener: aliasListener(aliasBudget(text.length)) } as never);
  } catch (err) {
    throw parseError(err, source);
  }
  const out: KubeDocument[] = [];
  const budget = printBudget(text.length);
  docs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    const where = `${source}: document ${i + 1}`;
    const copy = unsharedCopy(doc, budget);
    if (!copy.ok) throw new InputError(`${where}: ${copy.problem}`);
    const obj = copy.value as KubeDocument;
    // A List wrapper is read for its items only; kubectl does not insist on its apiVersion either.
    if (typeof obj !== 'object' || Array.isArray(obj) || obj.kind !== 'List') {
      const problem = shapeProblem(obj);
      if (problem) throw new InputError(`${where}: ${problem}`);
      out.push(obj);
      return;
    }
    if (obj.items === undefined || obj.items === null) return;
    if (!Array.isArray(obj.items)) throw new InputError(`${where}: List items must be a list`);
    obj.items.forEach((item, j) => {
      const itemProblem = shapeProblem(item);
      if (itemProblem) throw new InputError(`${where}, item ${j + 1}: ${itemProblem}`);
      out.push(item as KubeDocument);
    });
  });
  return out;
}

export type OutputFormat = 'yaml' | 'json';

export function formatDocuments(docs: unknown[], format: OutputFormat): string {
  if (format === 'json') {
    return docs.length === 1 ? `${JSON.stringify(docs[0], null, 2)}\n` : `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: docs }, null, 2)}\n`;
  }
  return docs.map((d) => yaml.dump(d, { noRefs: true, lineWidth: -1 })).join('---\n');
}

export function describe(doc: KubeDocument): string {
  const name = doc.metadata?.name ?? (doc.metadata?.generateName ? `${doc.metadata.generateName}*` : '<unnamed>');
  return `${doc.kind ?? '<no kind>'}/${name}`;
}
