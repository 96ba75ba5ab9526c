// The pods a SidecarSet manages (spec/daemon-and-controllers.md §6.3 step 1): active, in its namespace scope,
// selected by its selector, naming it in their injected list, and carrying all of its containers.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { podMatchSkipReason } from '../../shared/domain/inject/match.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import { byteOrder } from '../../shared/domain/inject/annotations.js';
import { hasSidecarContainers, isActivePod, isPodInjected } from './pod-state.js';

export type NamespaceLabels = (name: string) => Record<string, string> | undefined;

const podNamespace = (pod: Pod) => pod.metadata?.namespace || 'default';
const key = (pod: Pod) => `${podNamespace(pod)}/${pod.metadata?.name ?? ''}`;

/**
 * The matched pods among `candidates` (the pods whose injected list names the SidecarSet), sorted by namespace/name so
 * that orderings which fall back to list position are deterministic. Throws AdmissionDeniedError for an invalid
 * selector, which no retry can fix.
 */
export function matchedPods(set: SidecarSet, candidates: Iterable<Pod>, namespaceLabels: NamespaceLabels): Pod[] {
  const out: { key: string; pod: Pod }[] = [];
  for (const pod of candidates) {
    if (!isActivePod(pod) || !isPodInjected(set, pod) || !hasSidecarContainers(set, pod)) continue;
    if (podMatchSkipReason(set, pod, podNamespace(pod), namespaceLabels) !== null) continue;
    out.push({ key: key(pod), pod });
  }
  return out.sort((a, b) => byteOrder(a.key, b.key)).map((x) => x.pod);
}

/** `kruise.io/sidecarset-injected-list` for a pod lacking it: every SidecarSet that matches the pod, by name. */
export function matchingSetNames(pod: Pod, sets: readonly SidecarSet[], namespaceLabels: NamespaceLabels): string {
  const names: string[] = [];
  for (const s of sets) {
    try {
      if (podMatchSkipReason(s, pod, podNamespace(pod), namespaceLabels) === null) names.push(s.metadata?.name ?? '');
    } catch (err) {
      if (!(err instanceof AdmissionDeniedError)) throw err;
    }
  }
  return names.sort(byteOrder).join(',');
}
