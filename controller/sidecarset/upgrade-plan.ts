// Which matched pods get the new sidecar images this round (spec/daemon-and-controllers.md §6.5): candidates,
// their order, and the batch that partition and maxUnavailable allow.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { LabelSelectorError, matchesLabelSelector } from '../../shared/domain/label-selector.js';
import { activePodsKey, compareActivePodsKeys } from './active-pods-order.js';
import { maxUnavailableValue, partitionReplicas } from '../../shared/domain/int-or-percent.js';
import { upstreamChange, type PodChange } from './pod-change.js';
import { isPodReadyForSet, isPodSidecarUpdated, isPodStateConsistent, upgradability } from './pod-state.js';
import { prioritySort } from './priority-sort.js';
import { expandScatterTerms, scatterSort } from './scatter-sort.js';

export interface UpgradePlan {
  /** Pods to update now, in update order. */
  upgrade: Pod[];
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
 * and ready ones while the pods already updated but not consistent-and-ready stay below maxUnavailable.
 */
export function upgradeCount(set: SidecarSet, pods: readonly Pod[], waiting: readonly number[]): number {
  const strategy = set.spec?.updateStrategy ?? {};
  const partition = partitionReplicas(strategy.partition, pods.length);
  if (waiting.length - partition <= 0) return 0;
  const maxUnavailable = maxUnavailableValue(strategy.maxUnavailable, pods.length);
  let unavailable = 0;
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
  pods.forEach((pod, i) => {
    if (isPodSidecarUpdated(set, pod) || !selectedForUpdate(set, pod)) return;
    const { canUpgrade, consistent } = upgradability(set, pod, change(pod).kind !== 'new-pods-only');
    if (!canUpgrade) notUpgradable.push(pod);
    else if (consistent) waiting.push(i);
  });
  const ordered = sortForUpdate(set, pods, waiting);
  const count = upgradeCount(set, pods, ordered);
  const next = Math.max(1, maxUnavailableValue(set.spec?.updateStrategy?.maxUnavailable, pods.length));
  return {
    upgrade: ordered.slice(0, count).map((i) => pods[i]!),
    notUpgradable,
    upcoming: ordered.slice(count, count + next).map((i) => pods[i]!),
  };
}
