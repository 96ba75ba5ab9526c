// The manager's ContainerRecreateRequest reconcile as a pure plan (spec/daemon-and-controllers.md §4.3): from the
// CRR, its pod and the time, the ordered writes to make and when to look again. The controller performs them in
// order and stops at the first failure (the runner retries the whole plan).
import {
  CRRActiveLabel, CRRPodUIDLabel, CRRSyncContainerStatusesAnnotation, CRRUnreadyAcquiredKey,
  type ContainerRecreateRequest, type ContainerRecreateRequestContainerRecreateState as RecreateState,
} from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';
import { hasReadinessGate } from './pod-readiness.js';

/** The daemon must move a new CRR out of phase "" within this long (upstream responseTimeout). */
export const RESPONSE_TIMEOUT_MS = 60_000;

export const MSG_POD_GONE = 'pod has gone';
export const MSG_NO_RESPONSE = 'daemon has not responded for a long time';
export const MSG_DEADLINE = 'recreating has exceeded the activeDeadlineSeconds';

export type Action =
  /** Remove this CRR from the pod's KruisePodReady holders (pods/status, conflict retry). */
  | { type: 'release-pod-not-ready' }
  | { type: 'remove-finalizer' }
  | { type: 'remove-active-label' }
  | { type: 'delete' }
  /** Status phase Completed, completionTime now, message (and the per-container states given). */
  | { type: 'complete'; message: string; states?: RecreateState[] }
  /** Merge-patch annotation crr.apps.kruise.io/sync-container-statuses. */
  | { type: 'sync-container-statuses'; value: string }
  | { type: 'add-finalizer' }
  /** Add this CRR to the pod's KruisePodReady holders (pods/status, conflict retry). */
  | { type: 'acquire-pod-not-ready' }
  /** Merge-patch annotation crr.apps.kruise.io/unready-acquired: <now RFC3339>. */
  | { type: 'stamp-unready-acquired' };

export interface Plan {
  actions: Action[];
  requeueAfterMs?: number;
}

export interface PlanInput {
  crr: ContainerRecreateRequest;
  pod: Pod | undefined;
  nowMs: number;
}

/** Kubernetes times arrive as RFC3339 strings (plain JSON) or Dates (typed clients). */
export const timeMs = (t: unknown): number | undefined => {
  if (t instanceof Date) return t.getTime();
  if (typeof t !== 'string') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
};

const hasFinalizer = (crr: ContainerRecreateRequest) => (crr.metadata?.finalizers ?? []).includes(CRRUnreadyAcquiredKey);

export function planReconcile({ crr, pod, nowMs }: PlanInput): Plan {
  const md = crr.metadata ?? {};
  const completedAt = timeMs(crr.status?.completionTime);
  if (md.deletionTimestamp || completedAt !== undefined) return planFinished(crr, pod, nowMs, completedAt);

  if (!pod || pod.metadata?.deletionTimestamp || pod.metadata?.uid !== md.labels?.[CRRPodUIDLabel]) {
    return { actions: [{ type: 'complete', message: MSG_POD_GONE }] };
  }

  const created = timeMs(md.creationTimestamp) ?? nowMs;
  const waits: number[] = [];
  if (!crr.status?.phase) {
    const left = created + RESPONSE_TIMEOUT_MS - nowMs;
    if (left <= 0) return { actions: [{ type: 'complete', message: MSG_NO_RESPONSE }] };
    waits.push(left);
  }
  const deadline = crr.spec?.activeDeadlineSeconds;
  if (deadline != null) {
    const left = created + deadline * 1000 - nowMs;
    if (left <= 0) return { actions: [{ type: 'complete', message: MSG_DEADLINE, states: failUnfinished(crr.status?.containerRecreateStates, MSG_DEADLINE) }] };
    waits.push(left);
  }
  const requeue = waits.length ? { requeueAfterMs: Math.min(...waits) } : {};
  if (crr.status?.phase !== 'Recreating') return { actions: [], ...requeue };

  const actions: Action[] = [];
  const synced = syncContainerStatuses(crr, pod);
  if (md.annotations?.[CRRSyncContainerStatusesAnnotation] !== synced) actions.push({ type: 'sync-container-statuses', value: synced });
  if (crr.spec?.strategy?.unreadyGracePeriodSeconds != null && !md.annotations?.[CRRUnreadyAcquiredKey]) {
    // Finalizer first, then the pod, then the stamp: a crash in between never leaves the pod held without a finalizer.
    if (hasReadinessGate(pod)) {
      if (!hasFinalizer(crr)) actions.push({ type: 'add-finalizer' });
      actions.push({ type: 'acquire-pod-not-ready' });
    }
    actions.push({ type: 'stamp-unready-acquired' });
  }
  return { actions, ...requeue };
}

function planFinished(crr: ContainerRecreateRequest, pod: Pod | undefined, nowMs: number, completedAt: number | undefined): Plan {
  const actions: Action[] = [];
  if (hasFinalizer(crr)) {
    if (pod && !pod.metadata?.deletionTimestamp && hasReadinessGate(pod)) actions.push({ type: 'release-pod-not-ready' });
    actions.push({ type: 'remove-finalizer' });
  }
  if (crr.metadata?.deletionTimestamp) return { actions };
  if (crr.metadata?.labels?.[CRRActiveLabel] !== undefined) return { actions: [...actions, { type: 'remove-active-label' }] };
  const ttl = crr.spec?.ttlSecondsAfterFinished;
  if (ttl == null || completedAt === undefined) return { actions };
  const left = completedAt + ttl * 1000 - nowMs;
  return left <= 0 ? { actions: [...actions, { type: 'delete' }] } : { actions, requeueAfterMs: left };
}

/**
 * The annotation value: for each CRR container whose pod status is running and started at or after the CRR was
 * created, `{name, ready, restartCount, containerID}` — JSON with Go's field order and omitempty containerID.
 */
export function syncContainerStatuses(crr: ContainerRecreateRequest, pod: Pod): string {
  const created = timeMs(crr.metadata?.creationTimestamp) ?? 0;
  const out: { name: string; ready: boolean; restartCount: number; containerID?: string }[] = [];
  for (const c of crr.spec?.containers ?? []) {
    const s = (pod.status?.containerStatuses ?? []).find((x) => x.name === c.name);
    const startedAt = timeMs(s?.state?.running?.startedAt);
    if (!s || startedAt === undefined || startedAt < created) continue;
    out.push({ name: s.name, ready: !!s.ready, restartCount: s.restartCount ?? 0, ...(s.containerID ? { containerID: s.containerID } : {}) });
  }
  return JSON.stringify(out);
}

/** Containers not yet Succeeded or Failed are marked Failed with `message` when the deadline ends the CRR. */
function failUnfinished(states: RecreateState[] | undefined, message: string): RecreateState[] | undefined {
  if (!states) return undefined;
  return states.map((s) => (s.phase === 'Succeeded' || s.phase === 'Failed' ? s : { ...s, phase: 'Failed', message }));
}
