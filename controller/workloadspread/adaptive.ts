// The Adaptive strategy's part of the status (spec/availability-guards.md §14.7): a subset other than the last whose
// pods stay unschedulable past rescheduleCriticalSeconds gets `Schedulable=False` (the webhook then skips it) and those
// pods are deleted so their replacements land elsewhere; 300 s after, it is tried again. Pure: returns the condition,
// the pods to delete, and when to look again.
import type { Pod } from '../../shared/api/meta.js';
import { SubsetSchedulable, type WorkloadSpreadSubsetCondition } from '../../shared/api/workload-spread.js';
import { metaTime } from '../../shared/domain/workloadspread/subset-choice.js';

/** How long a subset stays unschedulable before it is tried again (upstream's MaxScheduledFailedDuration). */
export const RECOVER_AFTER_MS = 300_000;

export interface AdaptiveResult {
  condition: WorkloadSpreadSubsetCondition;
  timedOut: Pod[];
  requeueMs?: number;
  recovered?: boolean;
}

const unschedulableSince = (pod: Pod): boolean =>
  !pod.metadata?.deletionTimestamp && pod.status?.phase === 'Pending' && !pod.spec?.nodeName
  && (pod.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');

/** SetWorkloadSpreadSubsetCondition: same status and reason keeps the old; same status keeps its transition time. */
function setCondition(old: WorkloadSpreadSubsetCondition | undefined, next: WorkloadSpreadSubsetCondition): WorkloadSpreadSubsetCondition {
  if (old && old.status === next.status && (old.reason ?? '') === (next.reason ?? '')) return old;
  if (old && old.status === next.status && old.lastTransitionTime) return { ...next, lastTransitionTime: old.lastTransitionTime };
  return next;
}

/** The Schedulable condition of a subset that is not the last, from its pods and its old condition. */
export function adaptiveSubset(pods: readonly Pod[], old: WorkloadSpreadSubsetCondition | undefined, seconds: number, now: Date): AdaptiveResult {
  const nowMs = now.getTime();
  const timedOut: Pod[] = [];
  let requeueMs: number | undefined;
  const at = (ms: number) => { const d = Math.max(ms - nowMs, 1); requeueMs = requeueMs === undefined ? d : Math.min(requeueMs, d); };
  for (const pod of pods) {
    if (!unschedulableSince(pod)) continue;
    const deadline = Date.parse(String(pod.metadata?.creationTimestamp ?? '')) + seconds * 1000;
    if (deadline < nowMs) timedOut.push(pod);
    else if (Number.isFinite(deadline)) at(deadline);
  }
  const unschedulable = timedOut.length > 0;
  const fresh = (status: 'True' | 'False'): WorkloadSpreadSubsetCondition => ({ type: SubsetSchedulable, status, lastTransitionTime: metaTime(now), reason: '', message: '' });
  if (!old) return { condition: fresh(unschedulable ? 'False' : 'True'), timedOut, ...(requeueMs !== undefined ? { requeueMs } : {}) };
  if (unschedulable) return { condition: setCondition(old, fresh('False')), timedOut, ...(requeueMs !== undefined ? { requeueMs } : {}) };
  if (old.status === 'False') {
    const recoverAt = Date.parse(old.lastTransitionTime ?? '') + RECOVER_AFTER_MS;
    if (!(recoverAt > nowMs)) return { condition: setCondition(old, fresh('True')), timedOut, recovered: true, ...(requeueMs !== undefined ? { requeueMs } : {}) };
    at(recoverAt);
  }
  return { condition: old, timedOut, ...(requeueMs !== undefined ? { requeueMs } : {}) };
}

/** The last subset: never unschedulable. */
export const lastSubsetCondition = (old: WorkloadSpreadSubsetCondition | undefined, now: Date): WorkloadSpreadSubsetCondition =>
  setCondition(old, { type: SubsetSchedulable, status: 'True', lastTransitionTime: metaTime(now), reason: '', message: '' });
