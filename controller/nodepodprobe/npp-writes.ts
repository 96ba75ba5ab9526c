// NodePodProbe spec writes shared by the PodProbeMarker and NodePodProbe controllers: a full PUT from the cached
// object, guarded by its resourceVersion; a conflict (another worker or the other controller wrote the node's
// object first, upstream issue #2075) starts over from a GET, as retry.RetryOnConflict does.
import { isDeepStrictEqual } from 'node:util';
import type { NodePodProbe, PodProbe } from '../../shared/api/node-pod-probe.js';
import { sleep, type Clock } from '../../shared/clock.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';

const TRIES = 5;
export const NPP_FIELD_MANAGER = 'kruise-ts-nodepodprobe';

/**
 * Replaces the spec's podProbes with `next(current)` when they differ. Resolves the written object, or undefined when
 * nothing changed or the object is gone.
 */
export async function writePodProbes(rest: KubeRest, clock: Clock, name: string, cached: NodePodProbe | undefined,
  next: (npp: NodePodProbe) => PodProbe[]): Promise<NodePodProbe | undefined> {
  for (let attempt = 1; ; attempt++) {
    const base = attempt === 1 && cached ? cached : await rest.find<NodePodProbe>(resources.nodePodProbes, { name });
    if (!base || base.metadata?.deletionTimestamp) return undefined;
    const podProbes = next(base);
    if (isDeepStrictEqual(podProbes, base.spec?.podProbes ?? [])) return undefined;
    const { podProbes: _old, ...rest0 } = base.spec ?? {};
    const spec = podProbes.length ? { ...rest0, podProbes } : rest0;
    try {
      return await rest.replace(resources.nodePodProbes, withTypeMeta(resources.nodePodProbes, { ...base, spec }), { fieldManager: NPP_FIELD_MANAGER });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      if (!isConflict(err) || attempt >= TRIES) throw err;
      await sleep(clock, 10 + Math.random() * 10);
    }
  }
}
