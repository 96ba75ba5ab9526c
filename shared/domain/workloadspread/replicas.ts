// The workload's replica count a WorkloadSpread scales percentages against (spec/availability-guards.md §12.2 step 2,
// §14.3): the sum of targetFilter.replicasPathList when set, else the kind's own field.
import type { WorkloadSpread } from '../../api/workload-spread.js';

export type Workload = { apiVersion?: string; kind?: string; metadata?: { name?: string; uid?: string; generation?: number; ownerReferences?: Array<{ controller?: boolean; apiVersion: string; kind: string; name: string; uid: string }>; annotations?: Record<string, string>; labels?: Record<string, string>; deletionTimestamp?: unknown }; spec?: Record<string, any>; status?: Record<string, any> };

/** One dot path's value (numeric segments index arrays); errors worded as upstream's GetReplicasFromObject. */
export function replicasAtPath(obj: unknown, path: string): number {
  if (path === '') return 0;
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    if (Array.isArray(cur)) {
      const i = /^-?\d+$/.test(seg) ? Number(seg) : NaN;
      if (!Number.isInteger(i) || i < 0 || i >= cur.length) throw new Error(`index ${seg} out of range`);
      cur = cur[i];
    } else if (typeof cur === 'object' && cur !== null && seg in cur) {
      cur = (cur as Record<string, unknown>)[seg];
    } else throw new Error(`path "${seg}" not exists`);
  }
  if (typeof cur !== 'number' || !Number.isInteger(cur)) throw new Error('object type error');
  return cur;
}

export const sumReplicasPaths = (obj: unknown, paths: readonly string[]): number => paths.reduce((n, p) => n + replicasAtPath(obj, p), 0);

/** The kind's own count: Job parallelism, else spec.replicas. A missing workload counts 0. */
export function workloadReplicas(ws: WorkloadSpread, workload: Workload | undefined): number {
  if (!workload) return 0;
  const paths = ws.spec?.targetFilter?.replicasPathList ?? [];
  if (paths.length > 0) return sumReplicasPaths(workload, paths);
  const kind = ws.spec?.targetRef?.kind;
  const v = kind === 'Job' ? workload.spec?.parallelism : workload.spec?.replicas;
  return typeof v === 'number' ? v : 0;
}
