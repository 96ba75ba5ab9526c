// Which pods a PodProbeMarker probes (spec/node-probes-and-sidecar-lifecycle.md §0, §4.2, §4.4), as pure functions
// over cached pods and nodes.
import type { V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { PodProbeMarkerListAnnotationKey, type PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { compileLabelSelector, LabelSelectorError, type LabelMatcher } from '../../shared/domain/label-selector.js';

export const VIRTUAL_KUBELET_LABEL = 'type';
export const VIRTUAL_KUBELET_VALUE = 'virtual-kubelet';

export const isVirtualKubelet = (node: V1Node | undefined): boolean => node?.metadata?.labels?.[VIRTUAL_KUBELET_LABEL] === VIRTUAL_KUBELET_VALUE;

/** kubecontroller.IsPodActive: not finished and not being deleted. */
export const isPodActive = (pod: Pod): boolean =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;

export const isInitialized = (pod: Pod | undefined): boolean =>
  pod?.status?.conditions?.some((c) => c.type === 'Initialized' && c.status === 'True') ?? false;

/**
 * ValidatedLabelSelectorAsSelector as the PPM reconcile uses it: nil matches nothing, `{}` everything; undefined for a
 * selector that does not convert (the webhook refuses those; such a PPM then probes no pod).
 */
export function ppmSelector(ppm: PodProbeMarker): LabelMatcher | undefined {
  const s = ppm.spec?.selector;
  if (!s) return () => false;
  const m = compileLabelSelector(s);
  try {
    m({});
  } catch (err) {
    if (err instanceof LabelSelectorError) return undefined;
    throw err;
  }
  return m;
}

export interface MatchedPods { normal: Pod[]; serverless: Pod[] }

/** §4.2 step 2: active, Initialized, scheduled pods of the PPM's namespace its selector matches, split by node kind. */
export function matchPods(ppm: PodProbeMarker, pods: Iterable<Pod>, nodeOf: (name: string) => V1Node | undefined): MatchedPods {
  const out: MatchedPods = { normal: [], serverless: [] };
  const matches = ppmSelector(ppm);
  if (!matches) return out;
  const ns = ppm.metadata?.namespace;
  for (const pod of pods) {
    const nodeName = pod.spec?.nodeName;
    if (pod.metadata?.namespace !== ns || !nodeName || !isPodActive(pod) || !isInitialized(pod) || !matches(pod.metadata?.labels)) continue;
    const node = nodeOf(nodeName);
    if (!node) continue;
    (isVirtualKubelet(node) ? out.serverless : out.normal).push(pod);
  }
  return out;
}

/**
 * §4.4 GetPodProbeMarkerForPod: the PPMs a pod's `kruise.io/podprobemarker-list` names (selectors ignored, as
 * upstream), else those of its namespace whose selector is valid, non-empty and matches its labels.
 */
export function markersForPod(pod: Pod, ppmsOfNamespace: readonly PodProbeMarker[], get: (name: string) => PodProbeMarker | undefined): PodProbeMarker[] {
  const listed = pod.metadata?.annotations?.[PodProbeMarkerListAnnotationKey];
  if (listed) return listed.split(',').map(get).filter((p): p is PodProbeMarker => p !== undefined);
  return ppmsOfNamespace.filter((ppm) => {
    const s = ppm.spec?.selector;
    if (!s || Object.keys(s.matchLabels ?? {}).length + (s.matchExpressions ?? []).length === 0) return false;
    const m = ppmSelector(ppm);
    return m !== undefined && m(pod.metadata?.labels);
  });
}
