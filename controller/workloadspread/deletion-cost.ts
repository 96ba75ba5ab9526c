// Deletion cost (spec/availability-guards.md §14.5): for ReplicaSet, Deployment and CloneSet targets, every active pod
// gets `controller.kubernetes.io/pod-deletion-cost` so that scale-in removes pods of later subsets first, the excess
// of an over-full subset before the rest, and pods no subset holds before all. Old versions rank in reverse, so a
// rolling update removes the old pods the new ones replace. Pure: returns the value each pod should carry.
import type { Pod } from '../../shared/api/meta.js';
import { FakeSubsetName, PodDeletionCostAnnotation, type WorkloadSpread } from '../../shared/api/workload-spread.js';
import { subsetLimit } from '../../shared/domain/workloadspread/max-replicas.js';
import { compareActivePods } from '../sidecarset/active-pods-order.js';
import type { PlacedPod } from './subset-status.js';

export const COSTED_KINDS = new Set(['ReplicaSet', 'Deployment', 'CloneSet']);

const active = (p: Pod) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

/** pod key → the cost it should carry, for the pods of one version (`latest` = the workload's current version). */
export function deletionCosts(ws: WorkloadSpread, pods: readonly PlacedPod[], version: string, latest: string, replicas: number): Map<PlacedPod, string> {
  const subsets = ws.spec?.subsets ?? [];
  const n = subsets.length;
  const reverse = version !== latest;
  const out = new Map<PlacedPod, string>();
  const bySubset = new Map<string, PlacedPod[]>();
  for (const x of pods) {
    if (!active(x.pod)) continue;
    const list = bySubset.get(x.subset);
    if (list) list.push(x);
    else bySubset.set(x.subset, [x]);
  }
  subsets.forEach((subset, i) => {
    const p = reverse ? n - 1 - i : i;
    const mine = bySubset.get(subset.name) ?? [];
    const max = subsetLimit(subset.maxReplicas, replicas);
    if (max < 0 || mine.length <= max) {
      for (const x of mine) out.set(x, String(100 * (n - p)));
      return;
    }
    const ordered = [...mine].sort((a, b) => compareActivePods(a.pod, b.pod));
    ordered.forEach((x, j) => out.set(x, String(j < mine.length - max ? -100 * (p + 1) : 100 * (n - p))));
  });
  for (const x of pods) if (x.subset === FakeSubsetName && active(x.pod)) out.set(x, String(-100 * (n + 1)));
  return out;
}

/** Whether the pod needs a patch to carry `cost` (absent counts as "0"). */
export const costDiffers = (pod: Pod, cost: string): boolean => (pod.metadata?.annotations?.[PodDeletionCostAnnotation] ?? '0') !== cost;
