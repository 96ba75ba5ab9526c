// The pure steps of the budget check (spec/availability-guards.md §3.5), shared by the pod webhook and CloneSet:
// which requests never spend (steps 1-6), and what spending one unit does to a PUB copy (step 7).
import type { Pod } from '../../api/meta.js';
import {
  PodPubNoProtectionAnnotation, PubRelatedAnnotation, type PodUnavailableBudget, type PodUnavailableBudgetStatus, type PubOperation,
} from '../../api/pod-unavailable-budget.js';
import { isPubProtected } from './operations.js';
import { isPubConsistent, isPubReady } from './pod-state.js';

/** More records than this and the webhook refuses: the controller has fallen behind (upstream's maxUnavailablePodSize). */
export const MAX_UNCONFIRMED_RECORDS = 2000;

export const relatedPubName = (pod: Pod): string | undefined => pod.metadata?.annotations?.[PubRelatedAnnotation] || undefined;

/**
 * Why the operation on `pod` is allowed without spending (steps 1-2), or null when the PUB must be looked at.
 * Cheap and read-only: the webhook runs it before looking up the PUB.
 */
export function podExemption(pod: Pod): string | null {
  if (pod.metadata?.annotations?.[PodPubNoProtectionAnnotation] === 'true') return 'pod has no-protect annotation';
  if (!isPubReady(pod) || !isPubConsistent(pod)) return 'pod is already unavailable';
  return null;
}

/** Steps 4-6 on the cached PUB: why nothing is spent, or null to spend. */
export function pubExemption(pub: PodUnavailableBudget, podName: string, op: PubOperation, inPlacePodVerticalScaling: boolean): string | null {
  if ((pub.status?.desiredAvailable ?? 0) === 0) return 'pub desiredAvailable is 0';
  if (!isPubProtected(pub, op, inPlacePodVerticalScaling)) return `pub does not protect ${op}`;
  if (isRecorded(pub, podName)) return 'pod is already recorded by the pub';
  return null;
}

export const isRecorded = (pub: PodUnavailableBudget, podName: string): boolean =>
  pub.status?.unavailablePods?.[podName] !== undefined || pub.status?.disruptedPods?.[podName] !== undefined;

const forbidden = (pub: PodUnavailableBudget, why: string) => `podunavailablebudget.policy.kruise.io "${pub.metadata?.name ?? ''}" is forbidden: ${why}`;

/** RFC 3339 with whole seconds, as metav1.Time marshals. */
export const metaTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * One unit spent on `pub` for `podName` at `nowMs`: the status to write, or the refusal. UPDATE is recorded in
 * unavailablePods, DELETE, EVICT and RESIZE in disruptedPods (spec §18 #2: kept as upstream).
 */
export function spendOne(pub: PodUnavailableBudget, podName: string, op: PubOperation, nowMs: number): { status: PodUnavailableBudgetStatus } | { deny: string } {
  const st = pub.status ?? { unavailableAllowed: 0, currentAvailable: 0, desiredAvailable: 0, totalReplicas: 0 };
  if ((st.unavailableAllowed ?? 0) <= 0) return { deny: forbidden(pub, 'pub unavailable allowed is negative') };
  if (Object.keys(st.disruptedPods ?? {}).length + Object.keys(st.unavailablePods ?? {}).length > MAX_UNCONFIRMED_RECORDS) {
    return { deny: forbidden(pub, 'DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller') };
  }
  const key = op === 'UPDATE' ? 'unavailablePods' : 'disruptedPods';
  return { status: { ...st, unavailableAllowed: (st.unavailableAllowed ?? 0) - 1, [key]: { ...(st[key] ?? {}), [podName]: metaTime(nowMs) } } };
}
