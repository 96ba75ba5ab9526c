// The native-sidecar part of bench:sidecarset (kruise-ts extension: native sidecars updated in place): a second
// SidecarSet injecting a native sidecar (an init container with restartPolicy Always) into the same pods, and the
// measurement of one rollout of a SidecarSet (edit to every pod updated and ready), as the image rollout is measured.
import type { SidecarSet, SidecarSetStatus } from '../../shared/api/sidecarset.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { BenchRun } from '../run-kit.js';
import type { BenchKubelet } from './kubelet.js';
import { delta, total, type Counts } from './probes.js';

export const NATIVE_SET = 'bench-native';

/** Requests (Burstable pods) so its resources-only rollout can resize in place without changing QoS. */
export const nativeSidecarSet = (selector: Record<string, string>): SidecarSet => ({
  apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', metadata: { name: NATIVE_SET },
  spec: { selector: { matchLabels: selector }, containers: [], updateStrategy: { maxUnavailable: '10%' },
    initContainers: [{ name: 'native', image: 'busybox:1.35.0', command: ['sleep', '1d'], restartPolicy: 'Always',
      resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
});

export const setStatus = async (rest: KubeRest, name: string): Promise<Partial<SidecarSetStatus>> =>
  (await rest.get<SidecarSet>(resources.sidecarSets, { name })).status ?? {};

export interface Rollout { ms: number; controller: Counts; apiserver: Counts }

/**
 * Applies `ops` (a JSON patch) to SidecarSet `name` and waits until its status says every one of `pods` pods updated
 * and ready at the new generation. Resolves the time taken and the requests made meanwhile.
 */
export async function measureRollout(o: { rest: KubeRest; run: BenchRun; kubelet: BenchKubelet; pods: number; controller: () => Promise<Counts>; apiserver: () => Counts },
  what: string, name: string, ops: object[]): Promise<Rollout> {
  const apiBefore = o.apiserver();
  const ctlBefore = await o.controller();
  o.kubelet.peakUnavailable = 0;
  const t = Date.now();
  const edited = await o.rest.patch<SidecarSet>(resources.sidecarSets, { name }, 'json', ops);
  await o.run.until(what, async () => {
    const s = await setStatus(o.rest, name);
    return s.observedGeneration === edited.metadata?.generation && s.updatedPods === o.pods && s.updatedReadyPods === o.pods && s.readyPods === o.pods;
  }, { progress: async () => { const s = await setStatus(o.rest, name); return `${name}: updated ${s.updatedPods ?? 0}, ready ${s.readyPods ?? 0}; most unavailable at once ${o.kubelet.peakUnavailable}`; } });
  return { ms: Date.now() - t, controller: delta(ctlBefore, await o.controller()), apiserver: delta(apiBefore, o.apiserver()) };
}

/** `12.3 s (1.02× the image rollout), 2.01 controller requests per pod` */
export const compared = (r: Rollout, image: Rollout, pods: number) =>
  `${(r.ms / 1000).toFixed(1)} s (${(r.ms / image.ms).toFixed(2)}× the image rollout), ${(total(r.controller) / pods).toFixed(2)} controller requests per pod`;
