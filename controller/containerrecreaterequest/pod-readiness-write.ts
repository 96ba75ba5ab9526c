// The write half of the KruisePodReady holder protocol (spec/daemon-and-controllers.md §4.3): read the pod, let a
// pure change (pod-readiness.ts) compute its new conditions, replace pods/status — upstream's Get + UpdateStatus under
// retry.RetryOnConflict. Shared by the CRR controller and CloneSet's lifecycle hooks (markPodNotReady).
import type { KubernetesObject, V1PodCondition } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, type KubeRest } from '../../shared/kube/rest.js';

/** client-go retry.DefaultBackoff: 4 steps; a conflict past that is left to the runner's backoff. */
const CONFLICT_RETRIES = 4;

/** Read-modify-write of pods/status conditions; a pod that is gone or needs no change is left alone. */
export async function updatePodConditions(rest: KubeRest, where: { namespace: string; name: string }, change: (pod: Pod) => V1PodCondition[] | null,
  fieldManager: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const pod = await rest.find<Pod & KubernetesObject>(resources.pods, where);
      if (!pod) return;
      const conditions = change(pod);
      if (!conditions) return;
      await rest.replace(resources.pods, { ...pod, status: { ...pod.status, conditions } }, { subresource: 'status', fieldManager });
      return;
    } catch (err) {
      if (!isConflict(err) || attempt >= CONFLICT_RETRIES) throw err;
    }
  }
}
