// sidecarterminator-controller (kruise pkg/controller/sidecarterminator; spec node-probes-and-sidecar-lifecycle.md §8):
// when the main containers of a Job-like pod have finished, its marked sidecars are stopped — through a
// ContainerRecreateRequest the kruise daemon carries out on normal nodes, by an image swap on virtual-kubelet nodes —
// so the pod can end as its main containers decided. Gate SidecarTerminator (alpha, off by default, as upstream).
// Beyond upstream (issue 27 part 4): Job pods whose marked sidecars are native get an event instead (native.ts).
import type { V1Node } from '@kubernetes/client-node';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { CRRVirtualKubeletLabelKey, CRRVirtualKubeletLabelValue } from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';
import { EventReason } from '../../shared/domain/sidecar-terminator/crr.js';
import { nativeMessage, nativeSidecarsToNote } from '../../shared/domain/sidecar-terminator/native.js';
import { planTermination } from '../../shared/domain/sidecar-terminator/plan.js';
import { isInterestingPod } from '../../shared/domain/sidecar-terminator/qualify.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import type { Controller } from '../types.js';
import { OnceSet } from './once-set.js';
import { runStep, type StepDeps } from './steps.js';

export const isVirtualKubelet = (node: V1Node): boolean => node.metadata?.labels?.[CRRVirtualKubeletLabelKey] === CRRVirtualKubeletLabelValue;

/** Pods whose native-sidecar event was emitted (by uid); bounded, a pod forgotten after this many others. */
export const NOTED_PODS_LIMIT = 10_000;

export const sidecarTerminatorController: Controller = {
  name: 'sidecarterminator-controller',
  workers: 3,
  featureGate: 'SidecarTerminator',
  setup(deps, queue) {
    const pods = deps.informers.cache<Pod>(resources.pods);
    const nodes = deps.informers.cache<V1Node>(resources.nodes);
    const crrs = deps.informers.cache<ContainerRecreateRequest & { metadata?: object }>(resources.containerRecreateRequests);
    const events = deps.events('sidecarterminator-controller');
    const noted = new OnceSet(NOTED_PODS_LIMIT);
    const nativeDue = (pod: Pod) => !noted.has(pod.metadata?.uid ?? '') && nativeSidecarsToNote(pod, deps.clock.now()).length > 0;
    // Upstream enqueues on create and on updates with a new resourceVersion, never on delete; the cache calls back
    // only for real changes.
    pods.onChange((pod, verb) => {
      if (verb !== 'delete' && (isInterestingPod(pod) || nativeDue(pod))) queue.add(objectKey(pod));
    });
    const stepDeps: StepDeps = { rest: deps.rest, clock: deps.clock, crrs, events };

    return async (key) => {
      const pod = pods.get(key);
      if (!pod) return;
      const native = noted.has(pod.metadata?.uid ?? '') ? [] : nativeSidecarsToNote(pod, deps.clock.now());
      if (native.length > 0) {
        noted.add(pod.metadata?.uid ?? '');
        events.event({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata }, 'Normal', EventReason, nativeMessage(native));
      }
      if (!isInterestingPod(pod)) return;
      const nodeName = pod.spec?.nodeName ?? '';
      const node = nodes.get(nodeName);
      // Upstream retries on any error reading the node, NotFound included.
      if (!node) throw new Error(`get node "${nodeName}" of pod ${key}: not found`);
      for (const step of planTermination(pod, isVirtualKubelet(node))) await runStep(stepDeps, pod, step);
    };
  },
};
