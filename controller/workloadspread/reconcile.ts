// One WorkloadSpread's reconcile (spec/availability-guards.md §14.2): read the target's pods, group them by version
// and subset, set their deletion cost, and write the status when it changed. Yields between pods (timeSlicer).
import { isDeepStrictEqual } from 'node:util';
import type { V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { FakeSubsetName, type WorkloadSpread, type WorkloadSpreadStatus, type WorkloadSpreadSubsetStatus } from '../../shared/api/workload-spread.js';
import { compileLabelSelector } from '../../shared/domain/label-selector.js';
import { podMatchedWorkloadSpread } from '../../shared/domain/workloadspread/annotation.js';
import { podVersion } from '../../shared/domain/workloadspread/pod-version.js';
import { parseGroupVersion } from '../../shared/domain/workloadspread/targets.js';
import { timeSlicer } from '../../shared/reconcile/yield.js';
import { subsetLimit } from '../../shared/domain/workloadspread/max-replicas.js';
import { adoptionPatch, adoptSubset } from './adoption.js';
import { costDiffers, COSTED_KINDS, deletionCosts } from './deletion-cost.js';
import { subsetStatuses, type PlacedPod, type StatusEvent } from './subset-status.js';
import { latestVersion, readTarget, type TargetReads } from './targets.js';

export interface ReconcileIO extends TargetReads {
  patchDeletionCost(pod: Pod, cost: string): Promise<void>;
  /** The adoption patch (strategic merge) of a pod the webhook did not place. */
  patchPod(pod: Pod, patch: unknown): Promise<void>;
  node(name: string): V1Node | undefined;
  /** Adaptive rescheduling's delete (NotFound is done). */
  deletePod(pod: Pod): Promise<void>;
  /** Status write with the read resourceVersion (a Conflict throws and the key is retried). */
  writeStatus(ws: WorkloadSpread, status: WorkloadSpreadStatus): Promise<void>;
  event(ws: WorkloadSpread, type: 'Normal' | 'Warning', reason: string, message: string): void;
  now(): Date;
}

/** Where a pod counts, when its annotation says: this WS's subset, a subset gone from the spec → the fake one; undefined → adopt. */
function annotatedSubset(ws: WorkloadSpread, pod: Pod, names: ReadonlySet<string>): { subset?: string; key: string } {
  const m = podMatchedWorkloadSpread(pod);
  const key = m?.uid || pod.metadata?.name || '';
  if (!m || m.name !== ws.metadata?.name || m.subset === '') return { key };
  return { subset: names.has(m.subset) ? m.subset : FakeSubsetName, key };
}

/**
 * One version's pods placed (§14.4): annotated pods where their annotation says, the others adopted by node fit
 * against each subset's budget left (its limit less the version's annotated pods), patched as they are adopted.
 */
async function placeVersion(ws: WorkloadSpread, pods: readonly Pod[], replicas: number, io: ReconcileIO, tick: () => Promise<void> | undefined): Promise<PlacedPod[]> {
  const names = new Set((ws.spec?.subsets ?? []).map((s) => s.name));
  const annotated = pods.map((pod) => ({ pod, ...annotatedSubset(ws, pod, names) }));
  const counted = new Map<string, number>();
  for (const a of annotated) if (a.subset !== undefined) counted.set(a.subset, (counted.get(a.subset) ?? 0) + 1);
  const budgets = new Map((ws.spec?.subsets ?? []).map((s) => {
    const limit = subsetLimit(s.maxReplicas, replicas);
    return [s.name, (limit < 0 ? 2147483647 : limit) - (counted.get(s.name) ?? 0)] as const;
  }));
  const out: PlacedPod[] = [];
  for (const a of annotated) {
    await tick();
    if (a.subset !== undefined) { out.push({ pod: a.pod, subset: a.subset, key: a.key }); continue; }
    const nodeName = a.pod.spec?.nodeName;
    const subset = adoptSubset(ws, a.pod, nodeName ? io.node(nodeName) : undefined, budgets);
    if (subset !== FakeSubsetName) {
      await io.patchPod(a.pod, adoptionPatch(ws, subset));
      budgets.set(subset, (budgets.get(subset) ?? 0) - 1);
    }
    out.push({ pod: a.pod, subset, key: a.key });
  }
  return out;
}

export async function reconcileWorkloadSpread(ws: WorkloadSpread, io: ReconcileIO): Promise<{ requeueAfterMs?: number }> {
  if (ws.metadata?.deletionTimestamp || !ws.spec?.targetRef) return {};
  const ref = ws.spec.targetRef;
  const group = parseGroupVersion(ref.apiVersion)?.group ?? '';
  const target = await readTarget(ws, group, io);
  const slicer = timeSlicer();
  const tick = () => slicer.tick();
  const podsByVersion = new Map<string, Pod[]>();
  const selector = ws.spec.targetFilter?.selector;
  const selected = selector ? compileLabelSelector(selector) : () => true;
  for (const pod of target.pods) {
    await tick();
    if (!selected(pod.metadata?.labels ?? {})) continue;
    const v = podVersion(pod);
    const list = podsByVersion.get(v);
    if (list) list.push(pod);
    else podsByVersion.set(v, [pod]);
  }
  const byVersion = new Map<string, PlacedPod[]>();
  for (const [v, pods] of podsByVersion) byVersion.set(v, await placeVersion(ws, pods, target.replicas, io, tick));
  const all = [...byVersion.values()].flat();

  if (COSTED_KINDS.has(ref.kind)) {
    const latest = latestVersion(ws, target, io);
    for (const [version, pods] of byVersion) {
      for (const [placed, cost] of deletionCosts(ws, pods, version, latest, target.replicas)) {
        if (!costDiffers(placed.pod, cost)) continue;
        await slicer.tick();
        try {
          await io.patchDeletionCost(placed.pod, cost);
        } catch (err) {
          const ns = ws.metadata?.namespace ?? '';
          // The Go verb mismatch of upstream's message, reproduced (§18 #12).
          io.event(ws, 'Warning', 'PatchPodDeletionCostFailed', `WorkloadSpread ${ns}/${ws.metadata?.name} failed to patch deletion-cost annotation to %!d(string=${cost}) for Pod ${ns}/${placed.pod.metadata?.name} in subset ${placed.subset}`);
          throw err;
        }
      }
    }
  }

  const now = io.now();
  const events: StatusEvent[] = [];
  let requeue: number | undefined;
  const take = (r: { statuses: WorkloadSpreadSubsetStatus[]; requeueMs?: number; events: StatusEvent[]; timedOut: PlacedPod[] }) => {
    events.push(...r.events);
    if (r.requeueMs !== undefined) requeue = requeue === undefined ? r.requeueMs : Math.min(requeue, r.requeueMs);
    return r.statuses;
  };
  const old = ws.status ?? {};
  const overallResult = subsetStatuses(ws, all, old.subsetStatuses, target.replicas, now);
  const overall = take(overallResult);
  const versioned: Record<string, WorkloadSpreadSubsetStatus[]> = {};
  for (const [version, pods] of byVersion) versioned[version] = take(subsetStatuses(ws, pods, old.versionedSubsetStatuses?.[version], target.replicas, now));
  // A version without pods is kept only while one of its creating records is still fresh.
  for (const [version, hist] of Object.entries(old.versionedSubsetStatuses ?? {})) {
    if (byVersion.has(version)) continue;
    const statuses = take(subsetStatuses(ws, [], hist, target.replicas, now));
    if (statuses.some((s) => Object.keys(s.creatingPods ?? {}).length > 0)) versioned[version] = statuses;
  }
  for (const e of events) io.event(ws, e.type, e.reason, e.message);
  const status: WorkloadSpreadStatus = {
    ...(ws.metadata?.generation !== undefined ? { observedGeneration: ws.metadata.generation } : {}),
    subsetStatuses: overall,
    ...(Object.keys(versioned).length ? { versionedSubsetStatuses: versioned } : {}),
  };
  // Written only when it changed (upstream writes every reconcile, §18 #11).
  if (!isDeepStrictEqual(normalize(status), normalize(old))) await io.writeStatus(ws, status);
  // Adaptive: the pods that stayed unschedulable go, so their replacements are placed in a schedulable subset.
  for (const { pod, subset } of overallResult.timedOut) {
    try {
      await io.deletePod(pod);
    } catch (err) {
      const ns = ws.metadata?.namespace ?? '';
      io.event(ws, 'Warning', 'DeletePodFailed', `Failed to delete unschedulabe Pod ${ns}/${pod.metadata?.name} in Subset ${subset} of WorkloadSpread ${ns}/${ws.metadata?.name}`);
      throw err;
    }
  }
  return requeue !== undefined ? { requeueAfterMs: requeue } : {};
}

const normalize = (s: WorkloadSpreadStatus) => JSON.parse(JSON.stringify({ ...s, versionedSubsetStatuses: s.versionedSubsetStatuses ?? {} }));
