// Which pod and workload changes reconcile which PUB (spec/availability-guards.md §5.1). Pure: the caller applies
// the keys to its queue.
import type { Pod } from '../../shared/api/meta.js';
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { relatedPubName } from '../../shared/domain/pub/budget.js';
import { isPubConsistent, isPubReady } from '../../shared/domain/pub/pod-state.js';
import { sameWorkload, selectorMatcher, type WorkloadRef } from '../../shared/domain/pub/related.js';

/** A deleting pod reconciles its PUB after this (the apiserver's graceful deletion has started). */
export const DELETING_POD_DELAY_MS = 5_000;

export type PodEvent = { key: string; afterMs?: number } | undefined;

const pubKey = (pod: Pod) => { const n = relatedPubName(pod); return n ? `${pod.metadata?.namespace ?? ''}/${n}` : undefined; };

/** A pod created (`old` undefined) or updated. Deletes reconcile nothing (spec §18 #4 — followed; see compatibility.md). */
export function podEvent(old: Pod | undefined, pod: Pod, pubExists: (key: string) => boolean): PodEvent {
  const key = pubKey(pod);
  if (!key) return undefined;
  if (!old) return pubExists(key) ? { key } : undefined;
  if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return undefined;
  if (old.metadata?.deletionTimestamp) return undefined;
  if (pod.metadata?.deletionTimestamp) return { key, afterMs: DELETING_POD_DELAY_MS };
  const was = isPubReady(old) && isPubConsistent(old);
  const is = isPubReady(pod) && isPubConsistent(pod);
  return was !== is ? { key } : undefined;
}

/**
 * The PUB a workload change reconciles: the first of the namespace whose targetRef names it or whose selector matches
 * its template labels. kruise-ts enqueues nothing without a match (upstream enqueues an empty key, §18 #4).
 */
export function workloadPub(ref: WorkloadRef, templateLabels: Record<string, string> | undefined, pubs: readonly PodUnavailableBudget[]): string | undefined {
  for (const pub of pubs) {
    const t = pub.spec?.targetRef;
    const hit = t ? sameWorkload(ref, t) : !!selectorMatcher(pub)?.(templateLabels);
    if (hit) return `${pub.metadata?.namespace ?? ''}/${pub.metadata?.name ?? ''}`;
  }
  return undefined;
}
