// The InPlaceUpdateReady condition of CloneSet pods (spec/cloneset.md §3.8 step 1 and Refresh): False with reason
// StartInPlaceUpdate before an in-place update touches the pod (with Ready recomputed as kubelet would, so the pod
// leaves its Services first), True once the update is complete. Both are strategic-merge patches of pods/status,
// conditions merged by type.
import type { V1PodCondition } from '@kubernetes/client-node';
import { InPlaceUpdateReadyConditionType } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { hasReadinessGate, recomputeReady } from '../containerrecreaterequest/pod-readiness.js';

const find = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

/** The status patch setting InPlaceUpdateReady False (and Ready recomputed), or null without the gate or when already False. */
export function inPlaceNotReadyPatch(pod: Pod, now: string): object | null {
  if (!hasReadinessGate(pod, InPlaceUpdateReadyConditionType)) return null;
  if (find(pod, InPlaceUpdateReadyConditionType)?.status === 'False') return null;
  const conditions: V1PodCondition[] = structuredClone(pod.status?.conditions ?? []).filter((c) => c.type !== InPlaceUpdateReadyConditionType);
  const mine = { type: InPlaceUpdateReadyConditionType, status: 'False', reason: 'StartInPlaceUpdate', lastTransitionTime: now as never } as V1PodCondition;
  conditions.push(mine);
  const ready = recomputeReady(pod, conditions, now).find((c) => c.type === 'Ready');
  const changed = ready && find(pod, 'Ready')?.status !== ready.status ? [ready] : [];
  return { status: { conditions: [mine, ...changed] } };
}

/** The status patch setting InPlaceUpdateReady True, or null without the gate or when already True with no reason/message. */
export function inPlaceReadyPatch(pod: Pod, now: string): object | null {
  if (!hasReadinessGate(pod, InPlaceUpdateReadyConditionType)) return null;
  const c = find(pod, InPlaceUpdateReadyConditionType);
  if (c?.status === 'True' && !c.reason && !c.message) return null;
  return { status: { conditions: [{ type: InPlaceUpdateReadyConditionType, status: 'True', reason: null, message: null, lastTransitionTime: now }] } };
}
