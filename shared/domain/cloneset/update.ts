// Which pods one Update round moves to the target revision (spec/cloneset.md §3.7 steps 3 and 5). The order of the
// candidates (ActivePods, priority, scatter) is the caller's; this file picks and limits.
import { InPlaceUpdateGraceAnnotation } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import type { Diffs } from './diff.js';
import { isAvailable, lifecycleState, matchesRevision } from './pod-predicates.js';

/** Step 3: pods not at the update revision (updateNum > 0) or at it (< 0); PreparingDelete and grace-pending skipped. */
export function updateCandidates(pods: readonly Pod[], updateRevision: string, updateNum: number): Pod[] {
  return pods.filter((p) => {
    if (matchesRevision(p, updateRevision) === updateNum > 0) return false;
    const state = lifecycleState(p);
    if (state === 'PreparingDelete') return false;
    if (state === 'Updated') return true;
    return p.metadata?.annotations?.[InPlaceUpdateGraceAnnotation] === undefined;
  });
}

/**
 * Step 5: the first |updateNum| ordered candidates, cut where the unavailable budget ends: updating an available pod
 * makes one more unavailable pod; pods already at the target and unavailable use the budget too.
 */
export function limitUpdates(ordered: readonly Pod[], allPods: readonly Pod[], target: string, diffs: Diffs, minReadySeconds: number, nowMs: number): Pod[] {
  let unavailable = 0;
  let targetUnavailable = 0;
  for (const p of allPods) {
    if (isAvailable(p, minReadySeconds, nowMs)) continue;
    unavailable++;
    if (matchesRevision(p, target)) targetUnavailable++;
  }
  const out: Pod[] = [];
  for (const p of ordered.slice(0, Math.abs(diffs.updateNum))) {
    if (targetUnavailable + out.length >= diffs.updateMaxUnavailable) break;
    if (isAvailable(p, minReadySeconds, nowMs)) {
      if (unavailable >= diffs.updateMaxUnavailable) break;
      unavailable++;
    }
    out.push(p);
  }
  return out;
}
