// The order CloneSet updates candidates in (spec/cloneset.md §3.7 step 4): Kubernetes ActivePods, then
// priorityStrategy, then scatterStrategy, then PreparingUpdate pods first — the sorters SidecarSet uses too.
import type { CloneSetUpdateStrategy } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { lifecycleState } from '../../shared/domain/cloneset/pod-predicates.js';
import { activePodsKey, compareActivePodsKeys } from '../sidecarset/active-pods-order.js';
import { prioritySort } from '../sidecarset/priority-sort.js';
import { expandScatterTerms, scatterSort } from '../sidecarset/scatter-sort.js';

export function sortForUpdate(pods: readonly Pod[], strategy: CloneSetUpdateStrategy | undefined): Pod[] {
  const keys = pods.map(activePodsKey);
  let order = pods.map((_, i) => i).sort((a, b) => compareActivePodsKeys(keys[a]!, keys[b]!) || a - b);
  if (strategy?.priorityStrategy) order = prioritySort(strategy.priorityStrategy, pods, order);
  if (strategy?.scatterStrategy?.length) order = scatterSort(expandScatterTerms(strategy.scatterStrategy, pods), pods, order);
  const preparing = order.filter((i) => lifecycleState(pods[i]!) === 'PreparingUpdate');
  const rest = order.filter((i) => lifecycleState(pods[i]!) !== 'PreparingUpdate');
  return [...preparing, ...rest].map((i) => pods[i]!);
}
