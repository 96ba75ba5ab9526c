// One WorkloadSpread's reconcile (spec/availability-guards.md §14.2): read the target's pods, group them by version
// and subset, set their deletion cost, and write the status when it changed. Yields between pods (timeSlicer).
import { isDeepStrictEqual } from 'node:util';
import type { Pod } from '../../shared/api/meta.js';
import { FakeSubsetName, type WorkloadSpread, type WorkloadSpreadStatus, type WorkloadSpreadSubsetStatus } from '../../shared/api/workload-spread.js';
import { compileLabelSelector } from '../../shared/domain/label-selector.js';
import { podMatchedWorkloadSpread } from '../../shared/domain/workloadspread/annotation.js';
import { podVersion } from '../../shared/domain/workloadspread/pod-version.js';
import { parseGroupVersion } from '../../shared/domain/workloadspread/targets.js';
import { timeSlicer } from '../../shared/reconcile/yield.js';
import { costDiffers, COSTED_KINDS, deletionCosts } from './deletion-cost.js';
import { subsetStatuses, type PlacedPod, type StatusEvent } from './subset-status.js';
import { latestVersion, readTarget, type TargetReads } from './targets.js';

export interface ReconcileIO extends TargetReads {
  patchDeletionCost(pod: Pod, cost: string): Promise<void>;
  /** Adaptive rescheduling's delete (NotFound is done). */
  deletePod(pod: Pod): Promise<void>;
  /** Status write with the read resourceVersion (a Conflict throws and the key is retried). */
  writeStatus(ws: WorkloadSpread, status: WorkloadSpreadStatus): Promise<void>;
  event(ws: WorkloadSpread, type: 'Normal' | 'Warning', reason: string, message: string): void;
  now(): Date;
}

/** The subset a pod counts in: its annotation's, a subset gone from the spec → the fake one, another WS's or none → the fake one. */
function place(ws: WorkloadSpread, pod: Pod): PlacedPod {
  const m = podMatchedWorkloadSpread(pod);
  const names = new Set((ws.spec?.subsets ?? []).map((s) => s.name));
  const mine = m && m.name === ws.metadata?.name && m.subset !== '';
  const subset = mine && names.has(m.subset) ? m.subset : FakeSubsetName;
  return { pod, subset, key: m?.uid || pod.metadata?.name || '' };
}

export async function reconcileWorkloadSpread(ws: WorkloadSpread, io: ReconcileIO): Promise<{ requeueAfterMs?: number }> {
  if (ws.metadata?.deletionTimestamp || !ws.spec?.targetRef) return {};
  const ref = ws.spec.targetRef;
  const group = parseGroupVersion(ref.apiVersion)?.group ?? '';
  const target = await readTarget(ws, group, io);
  const slicer = timeSlicer();
  const byVersion = new Map<string, PlacedPod[]>();
  const all: PlacedPod[] = [];
  const selector = ws.spec.targetFilter?.selector;
  const selected = selector ? compileLabelSelector(selector) : () => true;
  for (const pod of target.pods) {
    await slicer.tick();
    if (!selected(pod.metadata?.labels ?? {})) continue;
    const placed = place(ws, pod);
    all.push(placed);
    const v = podVersion(pod);
    const list = byVersion.get(v);
    if (list) list.push(placed);
    else byVersion.set(v, [placed]);
  }

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
