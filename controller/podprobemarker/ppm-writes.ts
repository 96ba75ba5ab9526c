// Writes to a PodProbeMarker itself: its finalizer (metadata merge patch guarded by resourceVersion, finalizers kept
// sorted as upstream's set-based UpdateFinalizer leaves them) and its status (PUT, skipped when equal). A conflict
// starts over from a GET.
import type { PodProbeMarker, PodProbeMarkerStatus } from '../../shared/api/pod-probe-marker.js';
import { NodePodProbeCleanupFinalizer } from '../../shared/api/pod-probe-marker.js';
import { sleep, type Clock } from '../../shared/clock.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';

const TRIES = 5;
export const PPM_FIELD_MANAGER = 'kruise-ts-podprobemarker';

type At = { namespace: string; name: string };

async function retrying<T>(rest: KubeRest, clock: Clock, at: At, cached: PodProbeMarker, write: (ppm: PodProbeMarker) => Promise<T> | undefined): Promise<T | undefined> {
  for (let attempt = 1; ; attempt++) {
    const base = attempt === 1 ? cached : await rest.find<PodProbeMarker>(resources.podProbeMarkers, at);
    if (!base) return undefined;
    try {
      return await write(base);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      if (!isConflict(err) || attempt >= TRIES) throw err;
      await sleep(clock, 10 + Math.random() * 10);
    }
  }
}

/** Adds (`on`) or removes the clean-up finalizer; resolves the written object, or undefined when there was nothing to do. */
export function setCleanupFinalizer(rest: KubeRest, clock: Clock, cached: PodProbeMarker, on: boolean): Promise<PodProbeMarker | undefined> {
  const at = { namespace: cached.metadata?.namespace ?? '', name: cached.metadata?.name ?? '' };
  return retrying(rest, clock, at, cached, (ppm) => {
    const current = ppm.metadata?.finalizers ?? [];
    if (current.includes(NodePodProbeCleanupFinalizer) === on) return undefined;
    const set = new Set(current.filter((f) => f !== NodePodProbeCleanupFinalizer));
    if (on) set.add(NodePodProbeCleanupFinalizer);
    const finalizers = [...set].sort();
    return rest.patch<PodProbeMarker>(resources.podProbeMarkers, at, 'merge',
      { metadata: { finalizers: finalizers.length ? finalizers : null, resourceVersion: ppm.metadata?.resourceVersion } }, { fieldManager: PPM_FIELD_MANAGER });
  });
}

/** §1.3: observedGeneration always, matchedPods omitted at 0; no write when both already hold. */
export function writeStatus(rest: KubeRest, clock: Clock, cached: PodProbeMarker, matchedPods: number): Promise<PodProbeMarker | undefined> {
  const at = { namespace: cached.metadata?.namespace ?? '', name: cached.metadata?.name ?? '' };
  return retrying(rest, clock, at, cached, (ppm) => {
    const observedGeneration = ppm.metadata?.generation ?? 0;
    if ((ppm.status?.observedGeneration ?? 0) === observedGeneration && (ppm.status?.matchedPods ?? 0) === matchedPods) return undefined;
    const status: PodProbeMarkerStatus = { observedGeneration, ...(matchedPods ? { matchedPods } : {}) };
    return rest.replace(resources.podProbeMarkers, withTypeMeta(resources.podProbeMarkers, { ...ppm, status }), { subresource: 'status', fieldManager: PPM_FIELD_MANAGER });
  });
}
