// SidecarSet status (spec/daemon-and-controllers.md §6.4), computed from the matched pods, and the rule for when it
// is worth writing.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet, SidecarSetStatus } from '../../shared/api/sidecarset.js';
import { isPodReadyForSet, isPodStateConsistent, isPodUpdatedForStatus } from './pod-state.js';

/** The status fields upstream has, all set. */
export type CountedStatus = Required<SidecarSetStatus>;

/**
 * Counts over `pods` (the matched pods): updated = hash equal (and, kruise-ts, any sidecar resize applied by kubelet,
 * native sidecars running their new image: isPodUpdatedForStatus);
 * ready = consistent ∧ ready for this SidecarSet.
 */
export function computeStatus(set: SidecarSet, pods: readonly Pod[], latestRevision: string, collisionCount: number): CountedStatus {
  let updatedPods = 0;
  let readyPods = 0;
  let updatedReadyPods = 0;
  for (const pod of pods) {
    const updated = isPodUpdatedForStatus(set, pod);
    if (updated) updatedPods++;
    if (isPodStateConsistent(set, pod) && isPodReadyForSet(set, pod)) {
      readyPods++;
      if (updated) updatedReadyPods++;
    }
  }
  return {
    observedGeneration: set.metadata?.generation ?? 0,
    matchedPods: pods.length,
    updatedPods,
    readyPods,
    updatedReadyPods,
    latestRevision,
    collisionCount,
  };
}

/** inconsistentStatus: a newer generation or any differing count, revision or collision count. */
export function statusChanged(current: SidecarSetStatus | undefined, next: CountedStatus): boolean {
  const c = current ?? { matchedPods: 0, updatedPods: 0, readyPods: 0 };
  return next.observedGeneration > (c.observedGeneration ?? 0) ||
    next.matchedPods !== (c.matchedPods ?? 0) ||
    next.updatedPods !== (c.updatedPods ?? 0) ||
    next.readyPods !== (c.readyPods ?? 0) ||
    next.updatedReadyPods !== (c.updatedReadyPods ?? 0) ||
    next.latestRevision !== (c.latestRevision ?? '') ||
    next.collisionCount !== c.collisionCount;
}
