// The pod predicates every CloneSet computation uses (spec/cloneset.md §0 table): active, kubeReady, updateReady,
// available, and whether a pod is at a revision.
import {
  InPlaceUpdateReadyConditionType, LifecycleStateLabel, PodRevisionLabel, SpecifiedDeleteLabel,
} from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';

const condition = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);
const time = (t: unknown): number => (t ? new Date(t as string | Date).getTime() : 0);

export const isActive = (pod: Pod): boolean =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;

export const isKubeReady = (pod: Pod): boolean => condition(pod, 'Ready')?.status === 'True';

/** Running, Ready for at least minReadySeconds, and not in the middle of an in-place update. */
export function isUpdateReady(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (pod.status?.phase !== 'Running' || !isKubeReady(pod)) return false;
  if (minReadySeconds > 0 && !(time(condition(pod, 'Ready')?.lastTransitionTime) + minReadySeconds * 1000 < nowMs)) return false;
  const inPlace = condition(pod, InPlaceUpdateReadyConditionType);
  return !inPlace || inPlace.status === 'True';
}

export function lifecycleState(pod: Pod): string {
  return pod.metadata?.labels?.[LifecycleStateLabel] ?? '';
}

export function isAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  const state = lifecycleState(pod);
  return (state === '' || state === 'Normal') && isUpdateReady(pod, minReadySeconds, nowMs);
}

export const isSpecifiedDelete = (pod: Pod): boolean => pod.metadata?.labels?.[SpecifiedDeleteLabel] !== undefined;

const hashPart = (s: string) => s.slice(s.lastIndexOf('-') + 1);

/** The pod is at revision `rev`: the full name, or (short hashes) the text after the last '-' of both. */
export function matchesRevision(pod: Pod, rev: string): boolean {
  const label = pod.metadata?.labels?.[PodRevisionLabel];
  if (label === undefined) return false;
  return label === rev || hashPart(label) === hashPart(rev);
}
