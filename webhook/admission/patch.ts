// JSON Patch from "original vs mutated clone", never hand-written (style P3; controller-runtime PatchResponseFromRaw).
// The diff is our own rather than fast-json-patch's compare: that one walks a grown array index by index (one op per
// shifted element, each value deep-cloned), which cost more than the whole injection for pods with many sidecars.
// The apiserver only applies the patch, so any patch yielding the mutated object is equivalent (spec/webhooks.md).
import { jsonText } from '../../shared/domain/frozen-json.js';

export interface PatchResult {
  /** base64 of the RFC 6902 op list; absent when nothing changed. */
  patch?: string;
  ops: number;
}

export type PatchOp = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 6901 reference token. */
const escape = (key: string) => (key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key);

/** Whether two values have the same JSON text (NaN and null both encode as null). */
const jsonEqual = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Keys that survive JSON.stringify. */
const present = (o: Json, k: string) => Object.hasOwn(o, k) && o[k] !== undefined;

function diffValue(a: unknown, b: unknown, path: string, ops: PatchOp[]): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) return diffObject(a, b, path, ops);
  // Same-length arrays (a changed env value, a container replaced in place) get element ops; a grown array that only
  // gained elements gets one add per new element; any other grown or shrunk array is replaced whole, which is one op
  // instead of one per shifted element.
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === b.length) {
      for (let i = 0; i < a.length; i++) diffValue(a[i] ?? null, b[i] ?? null, `${path}/${i}`, ops);
      return;
    }
    if (a.length < b.length && insertions(a, b, path, ops)) return;
  }
  // Arrays of another length, or an object against an array, are never the same JSON; only primitives need the check.
  const primitive = typeof a !== 'object' || a === null || typeof b !== 'object' || b === null;
  if (!primitive || !jsonEqual(a, b)) ops.push({ op: 'replace', path, value: b });
}

/**
 * When `b` is `a` with elements inserted (every element of `a` found, in order and by identity, in `b`: injected
 * sidecars around the pod's own containers), one add per new element, in ascending index so each lands where `b` has
 * it. The pod's own elements are then not written back into the patch. False (nothing pushed) otherwise.
 */
function insertions(a: unknown[], b: unknown[], path: string, ops: PatchOp[]): boolean {
  const added: number[] = [];
  let i = 0;
  for (let j = 0; j < b.length; j++) {
    if (i < a.length && b[j] === a[i]) i++;
    else added.push(j);
  }
  if (i < a.length) return false;
  // An undefined element is null in the JSON the apiserver sees.
  for (const j of added) ops.push({ op: 'add', path: `${path}/${j}`, value: b[j] ?? null });
  return true;
}

function diffObject(a: Json, b: Json, path: string, ops: PatchOp[]): void {
  for (const k of Object.keys(a)) if (present(a, k) && !present(b, k)) ops.push({ op: 'remove', path: `${path}/${escape(k)}` });
  for (const k of Object.keys(b)) {
    if (!present(b, k)) continue;
    if (!present(a, k)) ops.push({ op: 'add', path: `${path}/${escape(k)}`, value: b[k] });
    // Same value: no op, and no path to build (escaping a key costs more than the comparison; maps are large).
    else if (a[k] !== b[k]) diffValue(a[k], b[k], `${path}/${escape(k)}`, ops);
  }
}

/** The RFC 6902 ops turning `original` into `mutated` (both JSON objects). Never mutates either argument. */
export function diffOps(original: unknown, mutated: unknown): PatchOp[] {
  const ops: PatchOp[] = [];
  if (isObject(original) && isObject(mutated)) diffObject(original, mutated, '', ops);
  else if (!jsonEqual(original, mutated)) ops.push({ op: 'replace', path: '', value: mutated });
  return ops;
}

// UTF-8 bytes of the op list are only needed long enough to base64 them: a typical patch (a dozen KB) is encoded in
// this one reused buffer rather than a new one per review. Synchronous use only, so sharing it is safe.
const scratch = Buffer.allocUnsafe(64 * 1024);

function base64Utf8(text: string): string {
  // A UTF-16 code unit never takes more than 3 UTF-8 bytes, so this bound guarantees the whole text fits.
  if (text.length * 3 > scratch.length) return Buffer.from(text).toString('base64');
  return scratch.toString('base64', 0, scratch.write(text));
}

/** JSON of an op's value, exactly as JSON.stringify writes it inside the op list. */
function valueJson(v: unknown): string | undefined {
  // Injected sidecars and volumes are deep-frozen and shared across reviews (shared/domain/frozen-json.ts): their
  // text is remembered, so an array holding them (a replaced containers or volumes list) is joined element by element
  // and only the pod's own elements are serialised again.
  if (Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += `${i ? ',' : ''}${jsonText(v[i]) ?? 'null'}`;
    return `${out}]`;
  }
  return jsonText(v);
}

/** JSON.stringify(ops), with op values through valueJson. */
export function opsJson(ops: readonly PatchOp[]): string {
  let out = '[';
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    // A value JSON cannot write (undefined: a whole document replaced by nothing) drops the member, as in JSON.stringify.
    const value = op.op === 'remove' ? undefined : valueJson(op.value);
    out += `${i ? ',' : ''}{"op":"${op.op}","path":${JSON.stringify(op.path)}${value === undefined ? '' : `,"value":${value}`}}`;
  }
  return `${out}]`;
}

/** Diffs `mutated` against the request's own JSON. Never mutates either argument. */
export function diffToPatch(original: unknown, mutated: unknown): PatchResult {
  const ops = diffOps(original, mutated);
  if (ops.length === 0) return { ops: 0 };
  return { patch: base64Utf8(opsJson(ops)), ops: ops.length };
}
