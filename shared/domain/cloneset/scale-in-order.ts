// Which pods a CloneSet removes first when it scales in (spec/cloneset.md §3.6): Kubernetes' ActivePods order with
// availability, pod-deletion-cost and the same-node rank folded in. Each pod's sort key is read once.
import { PodDeletionCostAnnotation } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { isAvailable, isKubeReady } from './pod-predicates.js';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const time = (t: unknown): number => (t ? new Date(t as string | Date).getTime() : 0);

/** controller.kubernetes.io/pod-deletion-cost as an int32; absent or invalid (`+5`, `007`, out of range) is 0. */
export function deletionCost(pod: Pod): number {
  const v = pod.metadata?.annotations?.[PodDeletionCostAnnotation];
  if (v === undefined || !/^-?(0|[1-9]\d*)$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

interface Key { scheduled: boolean; phase: number; available: boolean; ready: boolean; cost: number; rank: number; readyTime: number; restarts: number; created: number }

function keyOf(pod: Pod, rank: number, minReadySeconds: number, nowMs: number, withAvailability: boolean): Key {
  const ready = isKubeReady(pod);
  let restarts = 0;
  for (const c of pod.status?.containerStatuses ?? []) restarts = Math.max(restarts, c.restartCount ?? 0);
  return {
    scheduled: (pod.spec?.nodeName ?? '') !== '',
    phase: PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0,
    available: withAvailability ? isAvailable(pod, minReadySeconds, nowMs) : true,
    ready, cost: deletionCost(pod), rank,
    readyTime: ready ? time(pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime) : 0,
    restarts, created: time(pod.metadata?.creationTimestamp),
  };
}

/** Zero first, else the later time first. */
const laterFirst = (a: number, b: number): number => (a === b ? 0 : a === 0 ? -1 : b === 0 ? 1 : b - a);

function compare(a: Key, b: Key): number {
  if (a.scheduled !== b.scheduled) return a.scheduled ? 1 : -1;
  if (a.phase !== b.phase) return a.phase - b.phase;
  if (a.available !== b.available) return a.available ? 1 : -1;
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  if (a.cost !== b.cost) return a.cost - b.cost;
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (a.ready && b.ready && a.readyTime !== b.readyTime) return laterFirst(a.readyTime, b.readyTime);
  if (a.restarts !== b.restarts) return b.restarts - a.restarts;
  return laterFirst(a.created, b.created);
}

/**
 * Same-node rank: on a node holding k ≥ 2 of the pods, sorted without rank and availability, the i-th of the first
 * k-1 gets k-1-i and the last 0, so the crowded nodes give up pods first. (The topology-spread ranker is not
 * implemented: templates with topologySpreadConstraints rank by node too; docs/compatibility.md.)
 */
export function sameNodeRanks(pods: readonly Pod[], nowMs: number): Map<Pod, number> {
  const byNode = new Map<string, Pod[]>();
  for (const p of pods) {
    const node = p.spec?.nodeName ?? '';
    if (!node) continue;
    const list = byNode.get(node) ?? [];
    list.push(p);
    byNode.set(node, list);
  }
  const ranks = new Map<Pod, number>();
  for (const list of byNode.values()) {
    if (list.length < 2) continue;
    const keyed = list.map((p) => ({ p, k: keyOf(p, 0, 0, nowMs, false) }));
    keyed.sort((a, b) => compare(a.k, b.k));
    keyed.forEach(({ p }, i) => { if (i < keyed.length - 1) ranks.set(p, keyed.length - 1 - i); });
  }
  return ranks;
}

/** `pods` in scale-in order (first = deleted first); stable. */
export function sortForScaleIn(pods: readonly Pod[], minReadySeconds: number, nowMs: number): Pod[] {
  const ranks = sameNodeRanks(pods, nowMs);
  const keyed = pods.map((p) => ({ p, k: keyOf(p, ranks.get(p) ?? 0, minReadySeconds, nowMs, true) }));
  keyed.sort((a, b) => compare(a.k, b.k));
  return keyed.map(({ p }) => p);
}
