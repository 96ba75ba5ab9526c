// The pod events that wake PodProbeMarkers (spec/node-probes-and-sidecar-lifecycle.md §4.1): an update that makes an
// active, scheduled pod Initialized, or changes its IP. Creates and deletes wake nothing. The cache hands over only
// the new pod, so the handler keeps what it last saw of each (Initialized, IP), a few bytes a pod.
import type { V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { objectKey } from '../../shared/kube/keys.js';
import { isInitialized, isPodActive, isVirtualKubelet, markersForPod } from './pods.js';

export interface PodWatchDeps {
  pods: { get(key: string): Pod | undefined };
  nodes: { get(name: string): V1Node | undefined };
  markersOf(namespace: string): PodProbeMarker[];
  marker(namespace: string, name: string): PodProbeMarker | undefined;
  enqueue(key: string): void;
}

export function podWatch(deps: PodWatchDeps): (pod: Pod) => void {
  const last = new Map<string, { initialized: boolean; ip: string }>();
  return (pod) => {
    const key = objectKey(pod);
    if (!deps.pods.get(key)) { last.delete(key); return; }
    const now = { initialized: isInitialized(pod), ip: pod.status?.podIP ?? '' };
    const before = last.get(key);
    last.set(key, now);
    // First sight (a create, or the initial list): upstream ignores creates.
    if (!before) return;
    const nodeName = pod.spec?.nodeName;
    if (!isPodActive(pod) || !now.initialized || !nodeName) return;
    if (before.initialized && before.ip === now.ip) return;
    const node = deps.nodes.get(nodeName);
    // Serverless pods (virtual-kubelet nodes) wake nothing: their path is not supported.
    if (!node || isVirtualKubelet(node)) return;
    const ns = pod.metadata?.namespace ?? '';
    for (const ppm of markersForPod(pod, deps.markersOf(ns), (name) => deps.marker(ns, name))) deps.enqueue(objectKey(ppm));
  };
}
