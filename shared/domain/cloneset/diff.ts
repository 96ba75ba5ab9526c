// The expected-vs-actual differences Scale and Update both act on (spec/cloneset.md §3.4; upstream
// calculateDiffsWithExpectation). Pure: pods and resolved knobs in, numbers out.
import type { Pod } from '../../api/meta.js';
import { isAvailable, isSpecifiedDelete, lifecycleState, matchesRevision } from './pod-predicates.js';
import type { ResolvedStrategy } from './strategy-values.js';

export interface Diffs {
  scaleUpNum: number;
  scaleUpNumOldRevision: number;
  scaleDownNum: number;
  scaleDownNumOldRevision: number;
  scaleUpLimit: number;
  deleteReadyLimit: number;
  useSurge: number;
  useSurgeOldRevision: number;
  updateNum: number;
  updateMaxUnavailable: number;
}

export interface DiffInput {
  pods: readonly Pod[];
  updateRevision: string;
  strategy: ResolvedStrategy;
  nowMs: number;
  /** Names in scaleStrategy.podsToDelete, which count as specified-delete. */
  podsToDelete?: ReadonlySet<string>;
}

interface Counts { total: number; preDeleting: number; toDelete: number; unavailable: number; live: number }

function count(pods: readonly Pod[], input: DiffInput): Counts {
  const c: Counts = { total: pods.length, preDeleting: 0, toDelete: 0, unavailable: 0, live: 0 };
  for (const pod of pods) {
    if (lifecycleState(pod) === 'PreparingDelete') { c.preDeleting++; continue; }
    c.live++;
    if (isSpecifiedDelete(pod) || input.podsToDelete?.has(pod.metadata?.name ?? '')) c.toDelete++;
    else if (!isAvailable(pod, input.strategy.minReadySeconds, input.nowMs)) c.unavailable++;
  }
  return c;
}

const zero = (): Diffs => ({
  scaleUpNum: 0, scaleUpNumOldRevision: 0, scaleDownNum: 0, scaleDownNumOldRevision: 0, scaleUpLimit: 0,
  deleteReadyLimit: 0, useSurge: 0, useSurgeOldRevision: 0, updateNum: 0, updateMaxUnavailable: 0,
});

export function calculateDiffs(input: DiffInput): Diffs {
  const { replicas: R, partition: P, maxSurge: S, maxUnavailable: U, scaleMaxUnavailable: SU } = input.strategy;
  const newPods = input.pods.filter((p) => matchesRevision(p, input.updateRevision));
  const oldPods = input.pods.filter((p) => !matchesRevision(p, input.updateRevision));
  const n = count(newPods, input);
  const o = count(oldPods, input);
  const d = zero();

  // CloneSetPartitionRollback is off: pods beyond the partition are never moved back to the old revision.
  const oldDiff = Math.max(o.live - P, 0);
  const newDiff = Math.min(n.live - (R - P), 0);
  const totalUnavailable = n.preDeleting + o.preDeleting + n.unavailable + o.unavailable;
  const toDel = n.toDelete + o.toDelete;

  if (S > 0) {
    const scaleSurge = toDel > 0 ? Math.min(Math.max(totalUnavailable + toDel - U, 0), toDel) : 0;
    const scaleOldSurge = Math.max(scaleSurge - n.toDelete, 0);
    let updateSurge = 0;
    let updateOldSurge = 0;
    if ((oldDiff > 0 && newDiff < 0) || (oldDiff < 0 && newDiff > 0)) {
      if (Math.abs(oldDiff) <= Math.abs(newDiff)) {
        updateSurge = Math.abs(oldDiff);
        if (oldDiff < 0) updateOldSurge = updateSurge;
      } else {
        updateSurge = Math.abs(newDiff);
        if (newDiff > 0) updateOldSurge = updateSurge;
      }
    }
    if (scaleSurge >= updateSurge) {
      d.useSurge = Math.min(S, scaleSurge);
      d.useSurgeOldRevision = Math.min(d.useSurge, scaleOldSurge);
    } else {
      d.useSurge = Math.min(S, updateSurge);
      d.useSurgeOldRevision = Math.min(d.useSurge, updateOldSurge);
    }
  }

  const curTotal = input.pods.length;
  const curOld = o.total;
  const expTotal = R + d.useSurge;
  const expOld = P + d.useSurgeOldRevision;

  if (expTotal - curTotal > 0) {
    d.scaleUpNum = expTotal - curTotal;
    d.scaleUpNumOldRevision = Math.max(expOld - curOld, 0);
    d.scaleUpLimit = Math.min(d.scaleUpNum, Math.max(SU - totalUnavailable, 0));
  }
  if (curTotal - toDel - expTotal > 0) {
    d.scaleDownNum = curTotal - toDel - expTotal;
    d.scaleDownNumOldRevision = Math.max(curOld - o.toDelete - expOld, 0);
  }
  if (toDel > 0 || d.scaleDownNum > 0) d.deleteReadyLimit = Math.max(U + (curTotal - R) - totalUnavailable, 0);

  d.updateNum = Math.abs(oldDiff) <= Math.abs(newDiff) ? oldDiff : 0 - newDiff;
  if (d.updateNum !== 0) d.updateMaxUnavailable = U + curTotal - R;
  return d;
}
