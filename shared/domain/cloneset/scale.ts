// One Scale round of a CloneSet (spec/cloneset.md §3.5): what to create or delete, decided from the diffs. Pure; the
// controller executes the plan and ends the round when it changed anything. A preDelete hook (§3.9) turns a delete
// into a move to PreparingDelete; a phase whose pods are all still held falls through to the next, as upstream.
import type { Lifecycle } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { calculateDiffs, type Diffs } from './diff.js';
import { deleteAction, isLifecycleMarkPodNotReady } from './lifecycle.js';
import { isAvailable, isSpecifiedDelete, lifecycleState, matchesRevision } from './pod-predicates.js';
import { sortForScaleIn } from './scale-in-order.js';
import type { ResolvedStrategy } from './strategy-values.js';

export type ScalePlan =
  | { kind: 'none'; diffs: Diffs }
  /** Create `fromCurrent` pods at the current revision and `fromUpdate` at the update revision. */
  | { kind: 'create'; fromCurrent: number; fromUpdate: number; limited: boolean; diffs: Diffs }
  /** Delete `pods` (and their PVCs); move `prepare` (hooked by preDelete) to PreparingDelete instead. */
  | { kind: 'delete'; pods: Pod[]; prepare: Pod[]; diffs: Diffs }
  /** Step 2: PreparingDelete pods no longer needed gone (replicas went up again) back to PreparingNormal. */
  | { kind: 'restore'; pods: Pod[] };

export interface ScaleInput {
  pods: readonly Pod[];
  currentRevision: string;
  updateRevision: string;
  strategy: ResolvedStrategy;
  podsToDelete: ReadonlySet<string>;
  nowMs: number;
  lifecycle?: Lifecycle;
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

/** The delete plan of `chosen`, or undefined when every one of them is still held in PreparingDelete. */
function deletePlan(chosen: readonly Pod[], input: ScaleInput, diffs: Diffs): ScalePlan | undefined {
  const pods: Pod[] = [];
  const prepare: Pod[] = [];
  for (const p of chosen) {
    const a = deleteAction(p, input.lifecycle);
    if (a === 'delete') pods.push(p);
    else if (a === 'prepare-delete') prepare.push(p);
  }
  return pods.length + prepare.length > 0 ? { kind: 'delete', pods, prepare, diffs } : undefined;
}

export function planScale(input: ScaleInput): ScalePlan {
  const specified = (p: Pod) => isSpecifiedDelete(p) || input.podsToDelete.has(p.metadata?.name ?? '');
  const preDeleting = input.pods.filter((p) => lifecycleState(p) === 'PreparingDelete');
  const planned = input.pods.filter((p) => specified(p) || lifecycleState(p) === 'PreparingDelete');

  // Upstream forbids this regret under markPodNotReady: the Updated hook could be lost on the way back.
  if (!isLifecycleMarkPodNotReady(input.lifecycle)) {
    let d = input.strategy.replicas - input.pods.length + planned.length;
    const restore: Pod[] = [];
    for (const p of preDeleting) {
      if (d <= 0) break;
      if (specified(p)) continue;
      restore.push(p);
      d--;
    }
    if (restore.length > 0) return { kind: 'restore', pods: restore };
  }

  const diffs = calculateDiffs({ pods: input.pods, updateRevision: input.updateRevision, strategy: input.strategy, nowMs: input.nowMs, podsToDelete: input.podsToDelete });

  if (diffs.scaleUpNum > 0) {
    const limit = diffs.scaleUpLimit;
    const fromCurrent = limit <= diffs.scaleUpNumOldRevision ? limit : diffs.scaleUpNumOldRevision;
    return { kind: 'create', fromCurrent, fromUpdate: limit - fromCurrent, limited: diffs.scaleUpNum > limit, diffs };
  }

  const fromPreDelete = deletePlan(preDeleting, input, diffs);
  if (fromPreDelete) return fromPreDelete;

  const toDelete = input.pods.filter((p) => specified(p) && lifecycleState(p) !== 'PreparingDelete');
  const fromSpecified = deletePlan(withinBudget(toDelete, diffs.deleteReadyLimit, input), input, diffs);
  if (fromSpecified) return fromSpecified;

  if (diffs.scaleDownNum > 0 && planned.length === 0) {
    const fromScaleIn = deletePlan(withinBudget(choosePodsToScaleIn(input, diffs), diffs.deleteReadyLimit, input), input, diffs);
    if (fromScaleIn) return fromScaleIn;
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
