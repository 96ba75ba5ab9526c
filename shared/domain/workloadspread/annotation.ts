// The pod annotation apps.kruise.io/matched-workloadspread (spec/availability-guards.md §0.6): which WorkloadSpread
// and subset placed the pod. Go writes `{"name":…,"subset":…}` (+ `"uid"`), and reads it back case-insensitively on
// the field names (upstream's own tests write `{"Name":…,"Subset":…}`), so this reader does too.
import { MatchedWorkloadSpreadAnnotation } from '../../api/workload-spread.js';
import type { Pod } from '../../api/meta.js';

export interface MatchedWorkloadSpread { name: string; subset: string; uid?: string }

/**
 * The annotation as Go's json.Unmarshal into {Name, Subset, UID} reads it: undefined when absent, empty, not JSON, a
 * non-object other than `null`, or a field of the wrong type; `null` reads as no match (undefined too).
 */
export function parseMatchedAnnotation(raw: string | undefined): MatchedWorkloadSpread | undefined {
  if (!raw) return undefined;
  let v: unknown;
  try { v = JSON.parse(raw); } catch { return undefined; }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const out: MatchedWorkloadSpread = { name: '', subset: '' };
  for (const [k, x] of Object.entries(v)) {
    const field = k.toLowerCase();
    if (field !== 'name' && field !== 'subset' && field !== 'uid') continue;
    if (x === null) continue;
    if (typeof x !== 'string') return undefined;
    out[field] = x;
  }
  return out;
}

export const podMatchedWorkloadSpread = (pod: Pod): MatchedWorkloadSpread | undefined =>
  parseMatchedAnnotation(pod.metadata?.annotations?.[MatchedWorkloadSpreadAnnotation]);

/** The annotation's value as Go's json.Marshal writes it (field order name, subset, uid; uid omitted when empty). */
export function formatMatchedAnnotation(m: MatchedWorkloadSpread): string {
  return JSON.stringify({ name: m.name, subset: m.subset, ...(m.uid ? { uid: m.uid } : {}) });
}
