// One Scale round of a CloneSet (spec/cloneset.md §3.5): what to create or delete, decided from the diffs. Pure; the
// controller executes the plan and ends the round when it changed anything. Lifecycle hooks are not implemented
// (docs/compatibility.md), so PreparingDelete pods are deleted and nothing is moved back to PreparingNormal.
import type { Pod } from '../../api/meta.js';
import { calculateDiffs, type Diffs } from './diff.js';
import { isAvailable, isSpecifiedDelete, lifecycleState, matchesRevision } from './pod-predicates.js';
import { sortForScaleIn } from './scale-in-order.js';
import type { ResolvedStrategy } from './strategy-values.js';

export type ScalePlan =
  | { kind: 'none'; diffs: Diffs }
  /** Create `fromCurrent` pods at the current revision and `fromUpdate` at the update revision. */
  | { kind: 'create'; fromCurrent: number; fromUpdate: number; limited: boolean; diffs: Diffs }
  | { kind: 'delete'; pods: Pod[]; diffs: Diffs };

export interface ScaleInput {
  pods: readonly Pod[];
  currentRevision: string;
  updateRevision: string;
  strategy: ResolvedStrategy;
  podsToDelete: ReadonlySet<string>;
  nowMs: number;
}

/** Specified-delete pods that are not ready to delete always go; ready ones while the budget lasts. */
function withinBudget(pods: readonly Pod[], limit: number, input: ScaleInput): Pod[] {
  const out: Pod[] = [];
  let budget = limit;
  for (const p of pods) {
    if (!isAvailable(p, 0, input.nowMs)) out.push(p);
    else if (budget > 0) { budget--; out.push(p); }
  }
  return out;
}

export function planScale(input: ScaleInput): ScalePlan {
  const specified = (p: Pod) => isSpecifiedDelete(p) || input.podsToDelete.has(p.metadata?.name ?? '');
  const planned = input.pods.filter((p) => specified(p) || lifecycleState(p) === 'PreparingDelete');
  const diffs = calculateDiffs({ pods: input.pods, updateRevision: input.updateRevision, strategy: input.strategy, nowMs: input.nowMs, podsToDelete: input.podsToDelete });

  if (diffs.scaleUpNum > 0) {
    const limit = diffs.scaleUpLimit;
    const fromCurrent = limit <= diffs.scaleUpNumOldRevision ? limit : diffs.scaleUpNumOldRevision;
    return { kind: 'create', fromCurrent, fromUpdate: limit - fromCurrent, limited: diffs.scaleUpNum > limit, diffs };
  }

  const preDeleting = input.pods.filter((p) => lifecycleState(p) === 'PreparingDelete');
  if (preDeleting.length > 0) return { kind: 'delete', pods: preDeleting, diffs };

  const toDelete = input.pods.filter((p) => specified(p));
  if (toDelete.length > 0) {
    const chosen = withinBudget(toDelete, diffs.deleteReadyLimit, input);
    if (chosen.length > 0) return { kind: 'delete', pods: chosen, diffs };
  }

  if (diffs.scaleDownNum > 0 && planned.length === 0) {
    const chosen = withinBudget(choosePodsToScaleIn(input, diffs), diffs.deleteReadyLimit, input);
    if (chosen.length > 0) return { kind: 'delete', pods: chosen, diffs };
  }
  return { kind: 'none', diffs };
}

/** min(scaleDownNumOldRevision, scaleDownNum) from the old pods, the rest from the new, each group in §3.6 order. */
export function choosePodsToScaleIn(input: ScaleInput, diffs: Diffs): Pod[] {
  const m = input.strategy.minReadySeconds;
  const oldPods = input.pods.filter((p) => !matchesRevision(p, input.updateRevision));
  const newPods = input.pods.filter((p) => matchesRevision(p, input.updateRevision));
  const fromOld = Math.min(diffs.scaleDownNumOldRevision, diffs.scaleDownNum);
  const take = (pods: Pod[], n: number) => (n >= pods.length ? pods : sortForScaleIn(pods, m, input.nowMs).slice(0, n));
  const chosen = take(oldPods, fromOld);
  return [...chosen, ...take(newPods, Math.min(diffs.scaleDownNum - chosen.length, newPods.length))];
}
