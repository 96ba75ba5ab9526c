// The lifecycle state machine of CloneSet pods (spec/cloneset.md §3.9; kruise pkg/util/lifecycle at v1.8.4): hooks
// are labels/finalizers a pod carries while an outside party still has work to do before it is made Normal, updated
// in place or deleted. Pure: pods and `spec.lifecycle` in, the next state (and the KruisePodReady holder change that
// markPodNotReady asks for) out; the controller writes them.
import type { Lifecycle, LifecycleHook } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { readInPlaceGrace } from './inplace-annotations.js';
import { isInPlaceComplete } from './inplace.js';
import { lifecycleState, matchesRevision } from './pod-predicates.js';

/** Any of the hook's finalizers or label pairs is on the pod (a missing hook hooks nothing). */
export function isHooked(hook: LifecycleHook | undefined, pod: Pod): boolean {
  if (!hook) return false;
  const finalizers = pod.metadata?.finalizers ?? [];
  if ((hook.finalizersHandler ?? []).some((f) => finalizers.includes(f))) return true;
  const labels = pod.metadata?.labels ?? {};
  return Object.entries(hook.labelsHandler ?? {}).some(([k, v]) => labels[k] === v);
}

/** Every finalizer and label pair of the hook is on the pod (a missing hook is never all-hooked). */
export function isAllHooked(hook: LifecycleHook | undefined, pod: Pod): boolean {
  if (!hook) return false;
  const finalizers = pod.metadata?.finalizers ?? [];
  if (!(hook.finalizersHandler ?? []).every((f) => finalizers.includes(f))) return false;
  const labels = pod.metadata?.labels ?? {};
  return Object.entries(hook.labelsHandler ?? {}).every(([k, v]) => labels[k] === v);
}

/** preDelete or inPlaceUpdate marks pods not-ready: then PreparingDelete pods are never moved back (§3.5 step 2). */
export const isLifecycleMarkPodNotReady = (lc: Lifecycle | undefined): boolean =>
  !!lc?.preDelete?.markPodNotReady || !!lc?.inPlaceUpdate?.markPodNotReady;

/** The KruisePodReady holder of a lifecycle state (daemon-and-controllers.md §4.3), as upstream's `Lifecycle` agent. */
export const PreDeleteHolder = { userAgent: 'Lifecycle', key: 'preDeleteHook' } as const;
export const PreUpdateHolder = { userAgent: 'Lifecycle', key: 'preUpdateHook' } as const;

export interface ReadinessChange { op: 'add' | 'remove'; holder: { userAgent: string; key: string } }

/**
 * What markPodNotReady does when a pod moves to `state` (upstream executePodNotReadyPolicy): PreparingDelete and
 * PreparingUpdate add their holder, Updated releases the update holder; other states change nothing.
 */
export function readinessChangeFor(state: string, markPodNotReady: boolean): ReadinessChange | undefined {
  if (!markPodNotReady) return undefined;
  if (state === 'PreparingDelete') return { op: 'add', holder: PreDeleteHolder };
  if (state === 'PreparingUpdate') return { op: 'add', holder: PreUpdateHolder };
  if (state === 'Updated') return { op: 'remove', holder: PreUpdateHolder };
  return undefined;
}

/**
 * The state Update's refresh moves the pod to (the §3.9 table), or undefined to leave it:
 * PreparingNormal → Normal once scheduled (v1.9.0; v1.8.4 at once) or, with a preNormal hook, once all-hooked; PreparingUpdate at the
 * update revision (rolled back while waiting) → Updated/Normal; Updating, once complete → Updated/Normal; Updated →
 * Normal when the inPlaceUpdate hook is missing or all-hooked again.
 */
export function nextLifecycleState(pod: Pod, lc: Lifecycle | undefined, updateRevision: string): string | undefined {
  const afterUpdate = () => (lc && !isAllHooked(lc.inPlaceUpdate, pod) ? 'Updated' : 'Normal');
  switch (lifecycleState(pod)) {
    case 'PreparingNormal':
      if (!lc?.preNormal) return pod.spec?.nodeName ? 'Normal' : undefined;
      return isAllHooked(lc.preNormal, pod) ? 'Normal' : undefined;
    case 'PreparingUpdate':
      return matchesRevision(pod, updateRevision) ? afterUpdate() : undefined;
    case 'Updating':
      return isInPlaceComplete(pod) && !readInPlaceGrace(pod) ? afterUpdate() : undefined;
    case 'Updated':
      return !lc?.inPlaceUpdate || isAllHooked(lc.inPlaceUpdate, pod) ? 'Normal' : undefined;
    default:
      return undefined;
  }
}

/** What an in-place update due on a pod does first, by its lifecycle state (§3.7 step 6). */
export type InPlaceGate =
  /** Run the in-place update now (state becomes Updating). */
  | { kind: 'update' }
  /** Park the pod in PreparingUpdate; `readdHook`: put the inPlaceUpdate hook's labels and finalizers back (from Updated). */
  | { kind: 'prepare'; readdHook: boolean }
  /** PreparingUpdate and still hooked, or Updated without an inPlaceUpdate hook: nothing this round. */
  | { kind: 'wait' }
  | { kind: 'refuse'; message: string };

export function inPlaceGate(pod: Pod, lc: Lifecycle | undefined): InPlaceGate {
  const state = lifecycleState(pod);
  switch (state) {
    case '':
    case 'PreparingNormal':
    case 'Normal':
      return lc && isHooked(lc.inPlaceUpdate, pod) ? { kind: 'prepare', readdHook: false } : { kind: 'update' };
    case 'Updated':
      return lc?.inPlaceUpdate ? { kind: 'prepare', readdHook: true } : { kind: 'wait' };
    case 'PreparingUpdate':
      return lc && isHooked(lc.inPlaceUpdate, pod) ? { kind: 'wait' } : { kind: 'update' };
    case 'Updating':
      return { kind: 'update' };
    default:
      return { kind: 'refuse', message: `not allowed to in-place update pod ${pod.metadata?.name ?? ''} in state ${state}` };
  }
}

/** Scale's delete of one pod: hooked by preDelete → parked in PreparingDelete (once), else deleted (§3.5 "Delete"). */
export function deleteAction(pod: Pod, lc: Lifecycle | undefined): 'delete' | 'prepare-delete' | 'hold' {
  if (!lc || !isHooked(lc.preDelete, pod)) return 'delete';
  return lifecycleState(pod) === 'PreparingDelete' ? 'hold' : 'prepare-delete';
}
