// updateStrategy.priorityStrategy (kruise pkg/util/updatesort/priority_sort.go): weight terms add up per pod,
// higher first; or ordered keys, the first key a pod carries gives its level (lower first, pods with none first of
// all) and the trailing integer of the value breaks ties (larger first). Remaining ties keep their order (v1.9.0's
// comparator falls back to the positions, `i < j`, in a stable sort; v1.8.4 put the larger original index first).
import type { Pod } from '../../shared/api/meta.js';
import type { UpdatePriorityStrategy } from '../../shared/api/sidecarset.js';
import { matchesLabelSelector } from '../../shared/domain/label-selector.js';

function weight(strategy: UpdatePriorityStrategy, labels: Record<string, string>): number {
  let sum = 0;
  for (const term of strategy.weightPriority ?? []) {
    try {
      if (matchesLabelSelector(term.matchSelector ?? {}, labels)) sum += term.weight ?? 0;
    } catch {
      // An invalid term counts for nothing, as upstream skips it.
    }
  }
  return sum;
}

/** The trailing decimal digits of `v` as a number (0 when none). */
export function trailingInt(v: string): number {
  const m = /\d+$/.exec(v);
  if (!m) return 0;
  const n = Number(m[0]);
  return Number.isSafeInteger(n) ? n : 0;
}

function order(strategy: UpdatePriorityStrategy, labels: Record<string, string>): [level: number, order: number] {
  const keys = strategy.orderPriority ?? [];
  for (let i = 0; i < keys.length; i++) {
    const v = labels[keys[i]!.orderedKey];
    if (v !== undefined) return [i, trailingInt(v)];
  }
  return [-1, 0];
}

/** `indexes` (into `pods`) stably reordered by the strategy; unchanged when it has no terms. */
export function prioritySort(strategy: UpdatePriorityStrategy | undefined, pods: readonly Pod[], indexes: readonly number[]): number[] {
  const hasWeight = (strategy?.weightPriority?.length ?? 0) > 0;
  if (!strategy || (!hasWeight && (strategy.orderPriority?.length ?? 0) === 0)) return [...indexes];
  const labels = (i: number) => pods[i]!.metadata?.labels ?? {};
  const key = new Map(indexes.map((i) => [i, hasWeight ? [weight(strategy, labels(i))] : order(strategy, labels(i))]));
  return [...indexes].sort((a, b) => {
    const ka = key.get(a)!;
    const kb = key.get(b)!;
    if (hasWeight) {
      if (ka[0] !== kb[0]) return kb[0]! - ka[0]!;
    } else {
      if (ka[0] !== kb[0]) return ka[0]! - kb[0]!;
      if (ka[1] !== kb[1]) return kb[1]! - ka[1]!;
    }
    return 0;
  });
}
