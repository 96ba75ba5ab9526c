// kube controller.ActivePods ordering, the first key of the SidecarSet update order (spec/daemon-and-controllers.md
// §6.5 step 2): the pods whose disruption costs least come first. Each pod's key is read once (activePodsKey), so
// ordering n pods reads each pod once and compares numbers n log n times.
import type { Pod } from '../../shared/api/meta.js';
import { isPodReadyCondition } from './pod-state.js';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

const time = (t: unknown): number => (t ? new Date(t as string | Date).getTime() : 0);

/** What ActivePods compares, read from one pod. */
export interface ActivePodsKey { scheduled: boolean; phase: number; ready: boolean; readyTime: number; restarts: number; created: number }

export function activePodsKey(pod: Pod): ActivePodsKey {
  const ready = isPodReadyCondition(pod);
  let restarts = 0;
  for (const c of pod.status?.containerStatuses ?? []) restarts = Math.max(restarts, c.restartCount ?? 0);
  return {
    scheduled: (pod.spec?.nodeName ?? '') !== '',
    phase: PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0,
    ready,
    readyTime: ready ? time(pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime) : 0,
    restarts,
    created: time(pod.metadata?.creationTimestamp),
  };
}

/** afterOrZero: a zero time sorts first, else the later one. */
function afterOrZero(a: number, b: number): boolean {
  if (a === 0 || b === 0) return a === 0;
  return a > b;
}

/**
 * `x` goes before `y`: unscheduled < scheduled; Pending < Unknown < Running; not ready < ready; ready for less time <
 * longer; more restarts < fewer; newer < older (zero creation time first).
 */
function less(x: ActivePodsKey, y: ActivePodsKey): boolean {
  if (x.scheduled !== y.scheduled) return !x.scheduled;
  if (x.phase !== y.phase) return x.phase < y.phase;
  if (x.ready !== y.ready) return !x.ready;
  if (x.ready && x.readyTime !== y.readyTime) return afterOrZero(x.readyTime, y.readyTime);
  if (x.restarts !== y.restarts) return x.restarts > y.restarts;
  if (x.created !== y.created) return afterOrZero(x.created, y.created);
  return false;
}

/** Negative when the pod of key `a` goes before that of `b`, positive after, 0 when ActivePods has no preference. */
export function compareActivePodsKeys(a: ActivePodsKey, b: ActivePodsKey): number {
  if (less(a, b)) return -1;
  return less(b, a) ? 1 : 0;
}

export const compareActivePods = (a: Pod, b: Pod): number => compareActivePodsKeys(activePodsKey(a), activePodsKey(b));
