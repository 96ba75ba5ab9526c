// podreadiness-controller (kruise pkg/controller/podreadiness; spec/cloneset.md §5): a pod carrying the
// `KruisePodReady` readiness gate but no such condition gets `{KruisePodReady, True}` by a pods/status patch. The pod
// webhook gives every kruise-owned pod that gate (CloneSet pods included), so without this they never become Ready.
import type { Pod } from '../../shared/api/meta.js';
import { KruisePodReadyConditionType } from '../../shared/domain/pod-mutation.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import { hasReadinessGate } from '../containerrecreaterequest/pod-readiness.js';
import { patchPodStatus } from '../sidecarset/pod-writes.js';
import type { Controller } from '../types.js';

const FIELD_MANAGER = 'kruise-ts-podreadiness';

/** The gate is there and nobody has set the condition yet. */
export function needsInitialCondition(pod: Pod | undefined): boolean {
  if (!pod || pod.metadata?.deletionTimestamp || !hasReadinessGate(pod, KruisePodReadyConditionType)) return false;
  return !(pod.status?.conditions ?? []).some((c) => c.type === KruisePodReadyConditionType);
}

export const podReadinessController: Controller = {
  name: 'podreadiness-controller',
  workers: 3,
  setup(deps, queue) {
    const pods = deps.informers.cache<Pod>(resources.pods);
    pods.onChange((pod) => {
      const key = objectKey(pod);
      if (needsInitialCondition(pods.get(key))) queue.add(key);
    });
    return async (key) => {
      const pod = pods.get(key);
      if (!needsInitialCondition(pod)) return;
      const now = new Date(deps.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
      await patchPodStatus(deps.rest, { namespace: pod!.metadata?.namespace ?? '', name: pod!.metadata?.name ?? '' },
        { status: { conditions: [{ type: KruisePodReadyConditionType, status: 'True', lastTransitionTime: now }] } }, FIELD_MANAGER);
    };
  },
};
