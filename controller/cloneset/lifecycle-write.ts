// Lifecycle state writes of CloneSet pods (spec/cloneset.md §3.9; upstream UpdatePodLifecycle[WithHandler]): first
// the KruisePodReady holder markPodNotReady asks for, then a patch of the state label and timestamp — and, when a pod
// leaves Updated for PreparingUpdate, the inPlaceUpdate hook's labels and finalizers put back.
import { LifecycleStateLabel, LifecycleTimestampAnnotation, type LifecycleHook } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { rfc3339 } from '../../shared/domain/cloneset/inplace-annotations.js';
import { readinessChangeFor } from '../../shared/domain/cloneset/lifecycle.js';
import { lifecycleState } from '../../shared/domain/cloneset/pod-predicates.js';
import { resources } from '../../shared/kube/resources.js';
import { isNotFound } from '../../shared/kube/rest.js';
import { addNotReadyKey, removeNotReadyKey } from '../containerrecreaterequest/pod-readiness.js';
import { updatePodConditions } from '../containerrecreaterequest/pod-readiness-write.js';
import { at, FIELD_MANAGER, type Round } from './context.js';

export interface LifecycleWrite {
  state: string;
  markPodNotReady: boolean;
  /** Put these hook labels and finalizers back on the pod with the state (Updated → PreparingUpdate). */
  readdHook?: LifecycleHook;
}

/** Resolves true when the state label was written (a holder change alone does not end the round, as upstream). */
export async function writeLifecycle(round: Round, pod: Pod, w: LifecycleWrite): Promise<boolean> {
  const { deps } = round;
  const change = readinessChangeFor(w.state, w.markPodNotReady);
  if (change) {
    const now = rfc3339(round.nowMs);
    const fn = change.op === 'add' ? addNotReadyKey : removeNotReadyKey;
    await updatePodConditions(deps.rest, at(pod), (p) => fn(p, change.holder, now), FIELD_MANAGER);
  }
  if (lifecycleState(pod) === w.state) return false;
  // Upstream's raw strategic-merge patch, without a resourceVersion: finalizers merge, so hook finalizers add up.
  const body = {
    metadata: {
      labels: { ...(w.readdHook?.labelsHandler ?? {}), [LifecycleStateLabel]: w.state },
      annotations: { [LifecycleTimestampAnnotation]: rfc3339(round.nowMs) },
      ...(w.readdHook?.finalizersHandler?.length ? { finalizers: w.readdHook.finalizersHandler } : {}),
    },
  };
  try {
    const written = await deps.rest.patch<Pod>(resources.pods, at(pod), 'strategic', body, { fieldManager: FIELD_MANAGER });
    deps.rvExpectations.expect(written.metadata?.uid, written.metadata?.resourceVersion);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
