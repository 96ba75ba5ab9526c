// The status a WorkloadSpread controller writes (spec/availability-guards.md §14.6): per subset, the active pods, how
// many more it may take, and the webhook's creating/deleting records, kept while fresh and dropped with an event once
// stale. Pure: pods are already grouped by subset; `now` is passed in.
import type { Pod } from '../../shared/api/meta.js';
import { SubsetSchedulable, type WorkloadSpread, type WorkloadSpreadSubsetCondition, type WorkloadSpreadSubsetStatus } from '../../shared/api/workload-spread.js';
import { subsetLimit } from '../../shared/domain/workloadspread/max-replicas.js';
import { isPodActive } from '../../shared/domain/workloadspread/pod-version.js';
import { adaptiveSubset, lastSubsetCondition } from './adaptive.js';

/** A deleting record older than this is a deletion that did not happen; a creating record, a creation. */
export const DELETE_RECORD_MS = 15_000;
export const CREATE_RECORD_MS = 30_000;

export interface PlacedPod { pod: Pod; subset: string; key: string }

export interface StatusEvent { type: 'Normal' | 'Warning'; reason: 'CreatePodFailed' | 'DeletePodFailed' | 'RecoverSchedulable'; message: string }

export interface SubsetStatusesResult {
  statuses: WorkloadSpreadSubsetStatus[];
  /** Milliseconds until the earliest record expires (a requeue), if any. */
  requeueMs?: number;
  events: StatusEvent[];
  /** Adaptive: pods unschedulable past rescheduleCriticalSeconds in a subset but the last, to delete. */
  timedOut: PlacedPod[];
}

/** The statuses of `pods` (one version, or all), with `history` the previous statuses of the same scope. */
export function subsetStatuses(ws: WorkloadSpread, pods: readonly PlacedPod[], history: readonly WorkloadSpreadSubsetStatus[] | undefined, replicas: number, now: Date): SubsetStatusesResult {
  const ns = ws.metadata?.namespace ?? '';
  const nowMs = now.getTime();
  const events: StatusEvent[] = [];
  let requeueMs: number | undefined;
  const requeueAt = (ms: number) => { const d = Math.max(ms - nowMs, 1); requeueMs = requeueMs === undefined ? d : Math.min(requeueMs, d); };
  const bySubset = new Map<string, PlacedPod[]>();
  for (const p of pods) {
    const list = bySubset.get(p.subset);
    if (list) list.push(p);
    else bySubset.set(p.subset, [p]);
  }
  const seconds = ws.spec?.scheduleStrategy?.type === 'Adaptive' ? (ws.spec.scheduleStrategy.adaptive?.rescheduleCriticalSeconds ?? 0) : 0;
  const timedOut: PlacedPod[] = [];
  const subsets = ws.spec?.subsets ?? [];
  const byName = new Map<string, WorkloadSpreadSubsetStatus>();
  for (const h of history ?? []) if (!byName.has(h.name)) byName.set(h.name, h);
  const statuses = subsets.map((subset, index): WorkloadSpreadSubsetStatus => {
    const old = byName.get(subset.name);
    const max = subsetLimit(subset.maxReplicas, replicas);
    let replicasNow = 0;
    let missing = max;
    const creating: Record<string, string> = { ...(old?.creatingPods ?? {}) };
    const deleting: Record<string, string> = {};
    for (const { pod, key } of bySubset.get(subset.name) ?? []) {
      delete creating[key];
      if (!isPodActive(pod)) continue;
      replicasNow++;
      if (missing > 0) missing--;
      const name = pod.metadata?.name ?? '';
      const at = old?.deletingPods && Object.hasOwn(old.deletingPods, name) ? old.deletingPods[name] : undefined;
      if (at === undefined) continue;
      const expires = Date.parse(at) + DELETE_RECORD_MS;
      if (expires < nowMs) events.push({ type: 'Warning', reason: 'DeletePodFailed', message: `Pod ${ns}/${name} was expected to be deleted but it wasn't` });
      else {
        deleting[name] = at;
        if (missing < max) missing++;
        requeueAt(expires);
      }
    }
    for (const [key, at] of Object.entries(creating)) {
      const expires = Date.parse(at) + CREATE_RECORD_MS;
      if (expires < nowMs) {
        events.push({ type: 'Warning', reason: 'CreatePodFailed', message: `Pod ${ns}/${key} was expected to be created but it wasn't` });
        delete creating[key];
      } else {
        if (missing > 0) missing--;
        requeueAt(expires);
      }
    }
    // Adaptive (§14.7): the Schedulable condition; without it the condition is removed.
    let conditions: WorkloadSpreadSubsetCondition[] | undefined;
    if (seconds > 0) {
      const others = (old?.conditions ?? []).filter((c) => c.type !== SubsetSchedulable);
      const prev = old?.conditions?.find((c) => c.type === SubsetSchedulable);
      let condition: WorkloadSpreadSubsetCondition;
      if (index === subsets.length - 1) condition = lastSubsetCondition(prev, now);
      else {
        const mine = bySubset.get(subset.name) ?? [];
        const r = adaptiveSubset(mine.map((p) => p.pod), prev, seconds, now);
        condition = r.condition;
        const gone = new Set(r.timedOut);
        for (const p of mine) if (gone.has(p.pod)) timedOut.push(p);
        if (r.requeueMs !== undefined) requeueAt(nowMs + r.requeueMs);
        if (r.recovered) events.push({ type: 'Normal', reason: 'RecoverSchedulable', message: `Subset ${subset.name} of WorkloadSpread ${ns}/${ws.metadata?.name ?? ''} is recovered from unschedulable to schedulable` });
      }
      conditions = [...others, condition];
    } else conditions = (old?.conditions ?? []).filter((c) => c.type !== SubsetSchedulable);
    return {
      name: subset.name, replicas: replicasNow,
      ...(conditions?.length ? { conditions } : {}),
      missingReplicas: missing,
      ...(Object.keys(creating).length ? { creatingPods: creating } : {}),
      ...(Object.keys(deleting).length ? { deletingPods: deleting } : {}),
    };
  });
  return { statuses, ...(requeueMs !== undefined ? { requeueMs } : {}), events, timedOut };
}
