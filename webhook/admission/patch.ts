// JSON Patch from "original vs mutated clone", never hand-written (style P3; controller-runtime PatchResponseFromRaw).
import fjp from 'fast-json-patch';

export interface PatchResult {
  /** base64 of the RFC 6902 op list; absent when nothing changed. */
  patch?: string;
  ops: number;
}

/** Diffs `mutated` against the request's own JSON. Never mutates either argument. */
export function diffToPatch(original: unknown, mutated: unknown): PatchResult {
  const ops = fjp.compare(original as object, mutated as object);
  if (ops.length === 0) return { ops: 0 };
  return { patch: Buffer.from(JSON.stringify(ops)).toString('base64'), ops: ops.length };
}
