// /mutate-pod step 5 (spec/availability-guards.md §3.1, §3.6): a created pod guarded by a PodUnavailableBudget gets
// the `kruise.io/related-pub` annotation, which the budget check keys on. A lookup failure admits the pod without it
// (the PUB controller fills the annotation later).
import type { Pod } from '../../shared/api/meta.js';
import { PubRelatedAnnotation, type PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { controllerOf, pubForPod, type WorkloadRef } from '../../shared/domain/pub/related.js';

export interface RelatedPubDeps {
  pubs: (namespace: string) => readonly PodUnavailableBudget[];
  /** The controller owner of a ReplicaSet (its Deployment), read from the apiserver; undefined when none. */
  replicaSetOwner?: (namespace: string, name: string) => Promise<WorkloadRef | undefined>;
}

/** The pod's top workload: its controller, or the Deployment above a ReplicaSet (read only when a targetRef PUB may need it). */
async function topWorkload(pod: Pod, pubs: readonly PodUnavailableBudget[], deps: RelatedPubDeps): Promise<WorkloadRef | undefined> {
  const owner = controllerOf(pod);
  if (!owner) return undefined;
  const needsDeployment = owner.kind === 'ReplicaSet' && owner.apiVersion.startsWith('apps/') && pubs.some((p) => p.spec?.targetRef?.kind === 'Deployment');
  if (!needsDeployment || !deps.replicaSetOwner) return owner;
  const above = await deps.replicaSetOwner(pod.metadata?.namespace ?? '', owner.name);
  return above?.kind === 'Deployment' ? above : owner;
}

/** The pod with the annotation set when a PUB guards it; the same object otherwise. Never modifies `pod`. */
export async function withRelatedPub(pod: Pod, namespace: string, deps: RelatedPubDeps): Promise<Pod> {
  const pubs = deps.pubs(pod.metadata?.namespace || namespace);
  if (pubs.length === 0) return pod;
  const withNs = pod.metadata?.namespace ? pod : { ...pod, metadata: { ...pod.metadata, namespace } };
  let pub: PodUnavailableBudget | undefined;
  try {
    pub = pubForPod(withNs, pubs, await topWorkload(withNs, pubs, deps));
  } catch {
    return pod;
  }
  const name = pub?.metadata?.name;
  if (!name) return pod;
  return { ...pod, metadata: { ...pod.metadata, annotations: { ...pod.metadata?.annotations, [PubRelatedAnnotation]: name } } };
}
