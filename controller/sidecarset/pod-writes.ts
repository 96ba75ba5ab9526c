// Pod writes of the SidecarSet controller: read-modify-write with retry on conflict, as upstream's
// retry.RetryOnConflict(DefaultBackoff) around Get+Update (5 tries, ~10 ms apart). The write is a patch of what the
// mutation changed, guarded by the resourceVersion read (pod-patch.ts).
import type { Pod } from '../../shared/api/meta.js';
import { sleep, type Clock } from '../../shared/clock.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import { podUpdatePatch } from './pod-patch.js';
import { FIELD_MANAGER } from './revision-sync.js';

const TRIES = 5;

/**
 * Lets `mutate` change a copy of the pod (returning false when there is nothing to write) and writes the change. The
 * first try starts from `cached` when given — upstream's Get reads the informer cache too — and a conflict (the cache
 * was stale) starts over from a GET. Resolves the written pod, or undefined when the pod is gone or nothing changed.
 */
export async function updatePod(rest: KubeRest, clock: Clock, at: { namespace: string; name: string }, mutate: (pod: Pod) => boolean, cached?: Pod,
  fieldManager = FIELD_MANAGER): Promise<Pod | undefined> {
  for (let attempt = 1; ; attempt++) {
    const base = attempt === 1 && cached ? cached : await rest.find<Pod>(resources.pods, at);
    if (!base) return undefined;
    const pod = structuredClone(base);
    if (!mutate(pod)) return undefined;
    const patch = podUpdatePatch(base, pod);
    if (!patch) return undefined;
    try {
      return await rest.patch<Pod>(resources.pods, at, 'strategic', patch, { fieldManager });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      if (!isConflict(err) || attempt >= TRIES) throw err;
      await sleep(clock, 10 + Math.random());
    }
  }
}

/**
 * Strategic-merge patch of the pod's status subresource (conditions merge by type). Resolves the written pod (a base
 * for a next write that needs no GET), or undefined when the pod is gone.
 */
export async function patchPodStatus(rest: KubeRest, at: { namespace: string; name: string }, patch: object, fieldManager = FIELD_MANAGER): Promise<Pod | undefined> {
  try {
    return await rest.patch<Pod>(resources.pods, { ...at, subresource: 'status' }, 'strategic', patch, { fieldManager });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return undefined;
  }
}
