// Which matched pods get the new sidecar images this round (spec/daemon-and-controllers.md §6.5): candidates,
// their order, and the batch that partition and maxUnavailable allow.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { LabelSelectorError, matchesLabelSelector } from '../../shared/domain/label-selector.js';
import { activePodsKey, compareActivePodsKeys } from './active-pods-order.js';
import { maxUnavailableValue, partitionReplicas } from '../../shared/domain/int-or-percent.js';
import { upstreamChange, type PodChange } from './pod-change.js';
import { isPodReadyForSet, isPodSidecarUpdated, isPodStateConsistent, sidecarContainerNames, upgradability } from './pod-state.js';
import { restartsSidecars } from './pod-upgrade.js';
import { prioritySort } from './priority-sort.js';
import { isResizeApplied, resizePatch } from './resize-state.js';
import { expandScatterTerms, scatterSort } from './scatter-sort.js';

export interface UpgradePlan {
  /** Pods to update now, in update order. */
  upgrade: Pod[];
  /**
   * kruise-ts: pods resized in an earlier round (their sidecars have the SidecarSet's resources, not yet its hash) whose
   * resize kubelet has applied: their bookkeeping write is due now, outside the batch (the batch that resized them
   * counted them). Written from the cache once kubelet is done with the pod, it does not race kubelet's status write.
   */
  finish: Pod[];
  /** Pods that need more than an image or resources change: they get SidecarSetUpgradable=False and are skipped. */
  notUpgradable: Pod[];
  /** The candidates after `upgrade`, as many as maxUnavailable allows at once: the next batch (for pre-pull). */
  upcoming: Pod[];
}

/** updateStrategy.selector: nil selects every pod; an invalid one selects none. */
function selectedForUpdate(set: SidecarSet, pod: Pod): boolean {
  const selector = set.spec?.updateStrategy?.selector;
  if (!selector) return true;
  try {
    return matchesLabelSelector(selector, pod.metadata?.labels);
  } catch (err) {
    if (err instanceof LabelSelectorError) return false;
    throw err;
  }
}

/** SortUpdateIndexes: ActivePods order, then priorityStrategy, then scatterStrategy. */
export function sortForUpdate(set: SidecarSet, pods: readonly Pod[], indexes: readonly number[]): number[] {
  const strategy = set.spec?.updateStrategy ?? {};
  const keys = new Map(indexes.map((i) => [i, activePodsKey(pods[i]!)]));
  let out = [...indexes].sort((a, b) => compareActivePodsKeys(keys.get(a)!, keys.get(b)!));
  if (strategy.priorityStrategy) out = prioritySort(strategy.priorityStrategy, pods, out);
  if (strategy.scatterStrategy) out = scatterSort(expandScatterTerms(strategy.scatterStrategy, pods), pods, out);
  return out;
}

/**
 * calculateUpgradeCount: drop the last `partition` waiting pods; then walk the rest, taking not-ready pods for free
 * and ready ones while the pods already updated but not consistent-and-ready (plus `alsoUnavailable`, kruise-ts: pods
 * mid-resize) stay below maxUnavailable.
 */
export function upgradeCount(set: SidecarSet, pods: readonly Pod[], waiting: readonly number[], alsoUnavailable = 0): number {
  const strategy = set.spec?.updateStrategy ?? {};
  const partition = partitionReplicas(strategy.partition, pods.length);
  if (waiting.length - partition <= 0) return 0;
  const maxUnavailable = maxUnavailableValue(strategy.maxUnavailable, pods.length);
  let unavailable = alsoUnavailable;
  for (const pod of pods) {
    if (isPodSidecarUpdated(set, pod) && (!isPodStateConsistent(set, pod) || !isPodReadyForSet(set, pod))) unavailable++;
  }
  let count = 0;
  for (const i of waiting.slice(0, waiting.length - partition)) {
    if (!isPodReadyForSet(set, pods[i]!)) { count++; continue; }
    if (unavailable >= maxUnavailable) break;
    unavailable++;
    count++;
  }
  return count;
}

/**
 * GetNextUpgradePods over the matched pods of `set` (whose status is already current). `change` says how a pod behind
 * the SidecarSet catches up (pod-change.ts; upstream's image-only rule by default): resizes and image updates share
 * the candidates, the order and the batch.
 */
export function planUpgrade(set: SidecarSet, pods: readonly Pod[], change: (pod: Pod) => PodChange = (p) => upstreamChange(set, p)): UpgradePlan {
  const waiting: number[] = [];
  const notUpgradable: Pod[] = [];
  const finish: Pod[] = [];
  let midResize = 0;
  pods.forEach((pod, i) => {
    if (isPodSidecarUpdated(set, pod)) return;
    const c = change(pod);
    // Resized in an earlier batch, whatever the selector or partition say now: finished once kubelet applied it,
    // unavailable until then, and in this round too if its write changes an image (a restart).
    if (c.kind === 'resize' && resizePatch(set, pod, c.containers) === null) {
      const applied = isResizeApplied(pod, sidecarContainerNames(set));
      if (applied) finish.push(pod);
      if (!applied || restartsSidecars(set, pod) || !isPodStateConsistent(set, pod) || !isPodReadyForSet(set, pod)) midResize++;
      return;
    }
    if (!selectedForUpdate(set, pod)) return;
    const { canUpgrade, consistent } = upgradability(set, pod, c.kind !== 'new-pods-only');
    if (!canUpgrade) notUpgradable.push(pod);
    else if (consistent) waiting.push(i);
  });
  const ordered = sortForUpdate(set, pods, waiting);
  const count = upgradeCount(set, pods, ordered, midResize);
  const next = Math.max(1, maxUnavailableValue(set.spec?.updateStrategy?.maxUnavailable, pods.length));
  return {
    upgrade: ordered.slice(0, count).map((i) => pods[i]!),
    finish,
    notUpgradable,
    upcoming: ordered.slice(count, count + next).map((i) => pods[i]!),
  };
}
