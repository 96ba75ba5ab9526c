// Pod writes of the SidecarSet controller: read-modify-write with retry on conflict, as upstream's
// retry.RetryOnConflict(DefaultBackoff) around Get+Update (5 tries, ~10 ms apart).
import type { Pod } from '../../shared/api/meta.js';
import { sleep, type Clock } from '../../shared/clock.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import { FIELD_MANAGER } from './revision-sync.js';

const TRIES = 5;

/**
 * Lets `mutate` change a copy of the pod (returning false when there is nothing to write) and PUTs it. The first try
 * starts from `cached` when given — upstream's Get reads the informer cache too — and a conflict (the cache was
 * stale) starts over from a GET. Resolves the written pod, or undefined when the pod is gone or `mutate` declined.
 */
export async function updatePod(rest: KubeRest, clock: Clock, at: { namespace: string; name: string }, mutate: (pod: Pod) => boolean, cached?: Pod): Promise<Pod | undefined> {
  for (let attempt = 1; ; attempt++) {
    const pod = attempt === 1 && cached ? structuredClone(cached) : await rest.find<Pod>(resources.pods, at);
    if (!pod || !mutate(pod)) return undefined;
    try {
      return await rest.replace<Pod>(resources.pods, pod, { fieldManager: FIELD_MANAGER });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      if (!isConflict(err) || attempt >= TRIES) throw err;
      await sleep(clock, 10 + Math.random());
    }
  }
}

/** Strategic-merge patch of the pod's status subresource (conditions merge by type). */
export async function patchPodStatus(rest: KubeRest, at: { namespace: string; name: string }, patch: object): Promise<void> {
  try {
    await rest.patch(resources.pods, { ...at, subresource: 'status' }, 'strategic', patch, { fieldManager: FIELD_MANAGER });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
