// container-launch-priority-controller (spec/webhooks.md §4.2): releases a pod's containers one priority at a time
// by adding `p_<n>` keys to its `<pod>-barrier` ConfigMap, which kubelet waits for before starting each container.
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { objectKey, parseKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict } from '../../shared/kube/rest.js';
import type { Controller } from '../types.js';
import { barrierName, LaunchPriorityCompletedAnnotation, nextStep, skipReason } from './barrier.js';

const FIELD_MANAGER = 'kruise-ts-launch-priority';

export const launchPriorityController: Controller = {
  name: 'container-launch-priority-controller',
  workers: 4,
  setup({ informers, rest }, queue) {
    const pods = informers.cache<Pod>(resources.pods);
    pods.onChange((pod) => {
      const name = pod.metadata?.name;
      if (!name || pod.metadata?.deletionTimestamp) return;
      // The barrier is read by name through the API only when the filter cannot decide from the pod alone.
      if (skipReason(pod, undefined) === null) queue.add(objectKey(pod));
    });

    return async (key) => {
      const pod = pods.get(key);
      if (!pod?.metadata?.uid || pod.metadata.deletionTimestamp) return;
      const { namespace, name } = parseKey(key) as { namespace: string; name: string };
      const cmName = barrierName(name);
      let barrier = await rest.find<V1ConfigMap>(resources.configMaps, { namespace, name: cmName });
      if (skipReason(pod, barrier) !== null) return;
      let step = nextStep(pod, barrier);
      if (step.kind === 'create-barrier') {
        const fresh: V1ConfigMap = {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: cmName, namespace, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name, uid: pod.metadata.uid }] },
        };
        try {
          barrier = await rest.create(resources.configMaps, fresh, { fieldManager: FIELD_MANAGER });
        } catch (err) {
          if (!isConflict(err)) throw err;
          barrier = await rest.get<V1ConfigMap>(resources.configMaps, { namespace, name: cmName });
        }
        step = nextStep(pod, barrier);
      }
      if (step.kind === 'release') {
        await rest.patch(resources.configMaps, { namespace, name: cmName }, 'strategic', { data: { [step.key]: 'true' } }, { fieldManager: FIELD_MANAGER });
      }
      if (step.kind === 'complete' || (step.kind === 'release' && step.thenComplete)) {
        await rest.patch(resources.pods, { namespace, name }, 'strategic',
          { metadata: { annotations: { [LaunchPriorityCompletedAnnotation]: 'true' } } }, { fieldManager: FIELD_MANAGER });
      }
    };
  },
};
