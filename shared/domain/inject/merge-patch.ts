// RFC 7396 JSON merge patch with the quirks of github.com/evanphx/json-patch v5.6 MergePatch, which OpenKruise uses for
// patchPolicy MergePatchJson (spec/webhooks.md §2.4):
// - merged objects are re-marshalled by Go (keys sorted bytewise); values the merge never looked into keep their text,
//   compacted and HTML-escaped as json.Marshal does with raw messages;
// - a non-object patch is not "replace the document": an array patch becomes the result (nulls inside objects pruned),
//   a scalar or `null` patch is an error; a `null` document is an error; a non-object document yields the patch.
import { goString } from '../go-json.js';
import { byteOrder } from './annotations.js';

export class MergePatchError extends Error {
  constructor(readonly which: 'document' | 'patch') {
    super(which === 'document' ? 'Invalid JSON Document' : 'Invalid JSON Patch');
    this.name = 'MergePatchError';
  }
}

/** A lazily decoded JSON value, like evanphx's lazyNode: raw text until someone needs its structure. */
type Node = { raw: string } | { obj: Map<string, Node | null> } | { arr: (Node | null)[] };

/** Index just past the JSON value starting at `i` (text is known to be valid JSON). */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') {
    for (let j = i + 1; ; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j + 1;
    }
  }
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; ; j++) {
      const ch = text[j];
      if (ch === '"') j = skipValue(text, j) - 1;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') if (--depth === 0) return j + 1;
    }
  }
  let j = i;
  while (j < text.length && !/[\s,\]}]/.test(text[j]!)) j++;
  return j;
}

const skipWs = (text: string, i: number) => {
  while (/\s/.test(text[i] ?? '')) i++;
  return i;
};

/** Splits a valid JSON object or array text into element texts (object: key → text, last duplicate wins as in Go). */
function children(text: string): { keys?: string[]; values: string[] } {
  const values: string[] = [];
  const keys: string[] = [];
  const isObj = text[0] === '{';
  let i = skipWs(text, 1);
  while (text[i] !== '}' && text[i] !== ']') {
    if (isObj) {
      const end = skipValue(text, i);
      keys.push(JSON.parse(text.slice(i, end)) as string);
      i = skipWs(text, skipWs(text, end) + 1);
    }
    const end = skipValue(text, i);
    values.push(text.slice(i, end));
    i = skipWs(text, end);
    if (text[i] === ',') i = skipWs(text, i + 1);
  }
  return isObj ? { keys, values } : { values };
}

const leaf = (text: string): Node | null => (text === 'null' ? null : { raw: text });

function intoDoc(n: Node): Map<string, Node | null> | undefined {
  if ('obj' in n) return n.obj;
  if (!('raw' in n) || n.raw[0] !== '{') return undefined;
  const { keys, values } = children(n.raw);
  const obj = new Map<string, Node | null>();
  keys!.forEach((k, i) => obj.set(k, leaf(values[i]!)));
  Object.assign(n, { obj });
  delete (n as { raw?: string }).raw;
  return obj;
}

function intoAry(n: Node): (Node | null)[] | undefined {
  if ('arr' in n) return n.arr;
  if (!('raw' in n) || n.raw[0] !== '[') return undefined;
  const arr = children(n.raw).values.map(leaf);
  Object.assign(n, { arr });
  delete (n as { raw?: string }).raw;
  return arr;
}

function pruneNulls(n: Node): void {
  const doc = intoDoc(n);
  if (doc) return pruneDocNulls(doc);
  const ary = intoAry(n);
  if (ary) for (const v of ary) if (v) pruneNulls(v);
}

function pruneDocNulls(doc: Map<string, Node | null>): void {
  for (const [k, v] of doc) {
    if (v === null) doc.delete(k);
    else pruneNulls(v);
  }
}

function mergeDocs(doc: Map<string, Node | null>, patch: Map<string, Node | null>): void {
  for (const [k, v] of patch) {
    const cur = doc.get(k);
    if (v === null) doc.delete(k);
    else if (cur === undefined || cur === null) {
      pruneNulls(v);
      doc.set(k, v);
    } else doc.set(k, merge(cur, v));
  }
}

function merge(cur: Node, patch: Node): Node {
  const curDoc = intoDoc(cur);
  if (!curDoc) {
    pruneNulls(patch);
    return patch;
  }
  const patchDoc = intoDoc(patch);
  if (!patchDoc) return patch;
  mergeDocs(curDoc, patchDoc);
  return cur;
}

/** json.Compact with HTML escaping, applied by encoding/json to raw message output. */
function compactRaw(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = skipValue(text, i);
      out += text.slice(i, end).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      i = end - 1;
    } else if (!/\s/.test(ch)) out += ch;
  }
  return out;
}

function encode(n: Node | null): string {
  if (n === null) return 'null';
  if ('raw' in n) return compactRaw(n.raw);
  if ('arr' in n) return `[${n.arr.map(encode).join(',')}]`;
  const keys = [...n.obj.keys()].sort(byteOrder);
  return `{${keys.map((k) => `${goString(k)}:${encode(n.obj.get(k)!)}`).join(',')}}`;
}

function valid(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** MergePatch(doc, patch) → result text. Throws MergePatchError on invalid JSON or an unsupported patch shape. */
export function mergePatch(docText: string, patchText: string): string {
  if (!valid(docText)) throw new MergePatchError('document');
  if (!valid(patchText)) throw new MergePatchError('patch');
  const doc = leaf(docText.trim());
  const patch = leaf(patchText.trim());
  if (doc === null) throw new MergePatchError('document');
  if (patch === null) throw new MergePatchError('patch');
  const patchDoc = intoDoc(patch);
  const docDoc = intoDoc(doc);
  if (patchDoc && docDoc) {
    mergeDocs(docDoc, patchDoc);
    return encode(doc);
  }
  if (patchDoc) {
    pruneDocNulls(patchDoc);
    return encode(patch);
  }
  const ary = intoAry(patch);
  if (!ary) throw new MergePatchError('patch');
  for (const v of ary) if (v) pruneNulls(v);
  return encode(patch);
}
