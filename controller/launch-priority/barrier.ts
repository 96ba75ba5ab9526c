// The launch-priority barrier's pure decisions (spec/webhooks.md §4.2): which priorities are still waiting, whether a
// pod needs the controller at all, and the next step for its `<pod>-barrier` ConfigMap.
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { ContainerBarrierEnv } from '../../shared/domain/launch-priority.js';

export const LaunchPriorityCompletedAnnotation = 'apps.kruise.io/container-launch-priority-completed';

export const barrierName = (podName: string): string => `${podName}-barrier`;
export const priorityKey = (p: number): string => `p_${p}`;

/** Priorities (ascending, with repeats removed) of containers that carry a barrier env and are not ready yet. */
export function pendingPriorities(pod: Pod): number[] {
  const ready = new Set((pod.status?.containerStatuses ?? []).filter((s) => s.ready).map((s) => s.name));
  const out = new Set<number>();
  for (const c of pod.spec?.containers ?? []) {
    if (ready.has(c.name)) continue;
    const key = c.env?.find((e) => e.name === ContainerBarrierEnv)?.valueFrom?.configMapKeyRef?.key;
    const m = key ? /^p_(-?\d+)$/.exec(key) : null;
    if (m) out.add(Number(m[1]));
  }
  return [...out].sort((a, b) => a - b);
}

/** Why a pod event needs no reconcile, or null when it does (upstream's enqueue filter). */
export function skipReason(pod: Pod, barrier: V1ConfigMap | undefined): string | null {
  if (pod.metadata?.annotations?.[LaunchPriorityCompletedAnnotation] === 'true') return 'completed';
  if (pod.status?.conditions?.some((c) => c.type === 'ContainersReady' && c.status === 'True')) return 'containers ready';
  const pending = pendingPriorities(pod);
  if (pending.length === 0) return 'no pending priorities';
  if (barrier?.data?.[priorityKey(pending[pending.length - 1]!)] !== undefined) return 'highest pending priority already released';
  return null;
}

export type BarrierStep =
  | { kind: 'create-barrier' }
  | { kind: 'release'; key: string; thenComplete: boolean }
  | { kind: 'complete' }
  | { kind: 'wait' };

/**
 * The next step for a pod whose barrier exists or not: create it; release the highest pending priority (and mark the
 * pod completed when that was the last one); mark completed when nothing is pending or the lowest is released; or wait
 * for the released containers to become ready.
 */
export function nextStep(pod: Pod, barrier: V1ConfigMap | undefined): BarrierStep {
  if (!barrier) return { kind: 'create-barrier' };
  const pending = pendingPriorities(pod);
  const data = barrier.data ?? {};
  if (pending.length === 0 || data[priorityKey(pending[0]!)] !== undefined) return { kind: 'complete' };
  const highest = pending[pending.length - 1]!;
  if (data[priorityKey(highest)] === undefined) return { kind: 'release', key: priorityKey(highest), thenComplete: highest === pending[0] };
  return { kind: 'wait' };
}
