// Reading and writing the manifests the offline CLI works on: multi-document YAML or JSON, from files or stdin.
import yaml from 'js-yaml';

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

/**
 * Parses one source's text into its documents, in order. A JSON `List` (as `kubectl get -o json` prints) is
 * flattened into its items; empty YAML documents are dropped.
 */
export function parseDocuments(text: string, source: string): KubeDocument[] {
  let docs: unknown[];
  try {
    docs = yaml.loadAll(text, undefined, { filename: source, json: true });
  } catch (err) {
    throw new InputError(`${source}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const out: KubeDocument[] = [];
  docs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    if (typeof doc !== 'object' || Array.isArray(doc)) {
      throw new InputError(`${source}: document ${i + 1} is not a Kubernetes object (expected a mapping with apiVersion and kind)`);
    }
    const obj = doc as KubeDocument;
    if (obj.kind === 'List' && Array.isArray(obj.items)) out.push(...(obj.items as KubeDocument[]));
    else out.push(obj);
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
