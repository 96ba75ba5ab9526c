// GetPodsForPub (spec/availability-guards.md §5.2): a PUB's active pods and the number of pods it expects.
import type { Pod } from '../../shared/api/meta.js';
import { PubProtectTotalReplicasAnnotation, type PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { controllerOf, selectorMatcher } from '../../shared/domain/pub/related.js';
import { ownerScale, podsForRef, type WorkloadCaches } from './workloads.js';

export interface PubPods { pods: Pod[]; expected: number }

const active = (p: Pod) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata?.deletionTimestamp;

/** `namespacePods`: the pods of the PUB's namespace (selector mode only reads them). */
export function podsForPub(pub: PodUnavailableBudget, c: WorkloadCaches, namespacePods: () => readonly Pod[]): PubPods {
  const ns = pub.metadata?.namespace ?? '';
  let out: PubPods;
  const ref = pub.spec?.targetRef;
  if (ref) out = podsForRef(c, ns, { apiVersion: ref.apiVersion ?? '', kind: ref.kind ?? '', name: ref.name ?? '' });
  else {
    const match = pub.spec?.selector ? selectorMatcher(pub) : undefined;
    const pods = match ? namespacePods().filter((p) => active(p) && match(p.metadata?.labels)) : [];
    // Expected: the replicas of each distinct controller owner (pods without one, and unknown owners, add nothing).
    const scales = new Map<string, number>();
    for (const p of pods) {
      const owner = controllerOf(p);
      const s = owner ? ownerScale(c, ns, owner) : undefined;
      if (s) scales.set(s.key, s.replicas);
    }
    out = { pods, expected: [...scales.values()].reduce((a, b) => a + b, 0) };
  }
  const total = pub.metadata?.annotations?.[PubProtectTotalReplicasAnnotation];
  if (total) out.expected = /^[+-]?\d+$/.test(total) ? Number(total) : 0;
  return out;
}
