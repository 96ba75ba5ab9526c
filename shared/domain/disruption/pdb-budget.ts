// Taking a disruption from a PodDisruptionBudget (policy/v1) before an in-place restart, the way the eviction API
// takes one before a delete (kubernetes pkg/registry/core/pod/storage/eviction.go), so that in-place updates by the
// SidecarSet and CloneSet controllers and `kubectl drain` evictions share one budget (issue 26 part 4,
// docs/compatibility.md "PodDisruptionBudgets and in-place updates"). Pure: the gate (controller/disruption/) reads
// the PDBs and pods, calls `decide`, and writes the status it returns with the resourceVersion it read.
import type { LabelSelector, Pod } from '../../api/meta.js';
import { matchesLabelSelector } from '../label-selector.js';

export interface PdbCondition { type: string; status: string; reason: string; message: string; lastTransitionTime: string; observedGeneration?: number }

export interface PdbStatus {
  observedGeneration?: number;
  /** Pod name → the time its disruption was taken (RFC 3339). */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: PdbCondition[];
}

export interface PodDisruptionBudget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; generation?: number; resourceVersion?: string };
  spec?: { selector?: LabelSelector | null; unhealthyPodEvictionPolicy?: string };
  status?: PdbStatus;
}

/** The eviction API's bound on `disruptedPods` (eviction.go MaxDisruptedPodSize). */
export const MAX_DISRUPTED_PODS = 2000;
/** How long the disruption controller counts a recorded pod as disrupted (disruption.go DeletionTimeout). */
export const DISRUPTION_TIMEOUT_MS = 2 * 60_000;

/**
 * The PDBs of the pod's namespace whose selector matches it, as the eviction API picks them: a nil, empty or invalid
 * selector matches nothing (unlike the disruption controller, where policy/v1's empty selector matches every pod).
 */
export function budgetsFor(pod: Pod, pdbs: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  const ns = pod.metadata?.namespace ?? '';
  return pdbs.filter((b) => {
    const sel = b.spec?.selector;
    if ((b.metadata?.namespace ?? '') !== ns || !sel) return false;
    if (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0) return false;
    try { return matchesLabelSelector(sel, pod.metadata?.labels); } catch { return false; }
  });
}

const readyCondition = (pod: Pod) => pod.status?.conditions?.find((c) => c.type === 'Ready');
const isReady = (pod: Pod) => readyCondition(pod)?.status === 'True';
const timeOf = (t: unknown): number => (t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : NaN);

/**
 * Recorded pods whose disruption is over: Ready again, not being deleted, and Ready since a moment after the record
 * (whole seconds, strictly later). An evicted pod never qualifies (it is deleted, or stays Ready since before its
 * record when the delete failed); a pod restarted in place does once it is back. Dropping these lets the disruption
 * controller count the pod healthy again at once instead of after DISRUPTION_TIMEOUT_MS.
 */
export function finishedDisruptions(pdb: PodDisruptionBudget, podNamed: (name: string) => Pod | undefined): string[] {
  const out: string[] = [];
  for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    const pod = podNamed(name);
    if (!pod || pod.metadata?.deletionTimestamp || !isReady(pod)) continue;
    if (timeOf(readyCondition(pod)?.lastTransitionTime) > timeOf(at)) out.push(name);
  }
  return out;
}

/** The status without its finished disruptions, or undefined when none finished (nothing to write). */
export function withoutFinished(pdb: PodDisruptionBudget, podNamed: (name: string) => Pod | undefined): PdbStatus | undefined {
  const finished = new Set(finishedDisruptions(pdb, podNamed));
  if (finished.size === 0 || !pdb.status) return undefined;
  return { ...pdb.status, disruptedPods: Object.fromEntries(Object.entries(pdb.status.disruptedPods ?? {}).filter(([n]) => !finished.has(n))) };
}

export type Decision =
  /** No budget is involved: go ahead without writing. */
  | { kind: 'free'; reason: string }
  /** Go ahead after writing `status` (this pod recorded, one disruption fewer, finished ones dropped). */
  | { kind: 'take'; pdb: PodDisruptionBudget; status: PdbStatus }
  /** Not now; `status`, when set, drops finished disruptions (worth writing: the controller then recounts). */
  | { kind: 'wait'; reason: string; pdb?: PodDisruptionBudget; status?: PdbStatus };

const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** The DisruptionAllowed condition as the eviction API sets it when it takes the last allowed disruption. */
function insufficient(status: PdbStatus, nowMs: number): PdbCondition[] {
  const others = (status.conditions ?? []).filter((c) => c.type !== 'DisruptionAllowed');
  const old = status.conditions?.find((c) => c.type === 'DisruptionAllowed');
  const unchanged = old?.status === 'False';
  return [...others, { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: unchanged ? old.message : '',
    lastTransitionTime: unchanged ? old.lastTransitionTime : rfc3339(nowMs), ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}) }];
}

/**
 * Whether `pod` may be restarted in place now, against the PDBs `budgetsFor` picked. More than one PDB: wait, as the
 * eviction API refuses to evict such a pod (decision recorded in docs/compatibility.md).
 */
export function decide(pod: Pod, budgets: readonly PodDisruptionBudget[], nowMs: number, podNamed: (name: string) => Pod | undefined): Decision {
  if (budgets.length === 0) return { kind: 'free', reason: 'no PodDisruptionBudget selects the pod' };
  if (budgets.length > 1) {
    return { kind: 'wait', reason: `more than one PodDisruptionBudget selects the pod (${budgets.map((b) => b.metadata?.name).join(', ')}), which the eviction API does not support either` };
  }
  const pdb = budgets[0]!;
  const name = pod.metadata?.name ?? '';
  const phase = pod.status?.phase;
  // The eviction API ignores the budget for these (canIgnorePDB).
  if (pod.metadata?.deletionTimestamp || phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending') return { kind: 'free', reason: `pod is ${pod.metadata?.deletionTimestamp ? 'being deleted' : phase}` };
  const status: PdbStatus = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  const recorded = status.disruptedPods?.[name];
  if (recorded !== undefined && timeOf(recorded) + DISRUPTION_TIMEOUT_MS > nowMs) return { kind: 'free', reason: `already recorded in ${pdb.metadata?.name}'s disruptedPods` };
  if (!isReady(pod)) {
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return { kind: 'free', reason: 'pod not ready (unhealthyPodEvictionPolicy AlwaysAllow)' };
    if (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0) return { kind: 'free', reason: 'pod not ready and the budget is healthy' };
  }
  const finished = new Set(finishedDisruptions(pdb, podNamed));
  const kept = Object.fromEntries(Object.entries(status.disruptedPods ?? {}).filter(([n]) => !finished.has(n)));
  const cleaned: PdbStatus | undefined = finished.size > 0 ? { ...status, disruptedPods: kept } : undefined;
  const wait = (reason: string): Decision => ({ kind: 'wait', reason, ...(cleaned ? { pdb, status: cleaned } : {}) });
  const pdbName = pdb.metadata?.name ?? '';
  if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) return wait(`The disruption budget ${pdbName} is still being processed by the server.`);
  if (status.disruptionsAllowed < 0) return wait(`pdb ${pdbName} disruptions allowed is negative`);
  if (Object.keys(kept).length > MAX_DISRUPTED_PODS) return wait(`pdb ${pdbName}: DisruptedPods map too big - too many evictions not confirmed by PDB controller`);
  if (status.disruptionsAllowed === 0) {
    return wait(`Cannot evict pod as it would violate the pod's disruption budget. The disruption budget ${pdbName} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`);
  }
  const allowed = status.disruptionsAllowed - 1;
  return {
    kind: 'take', pdb,
    status: { ...status, disruptionsAllowed: allowed, disruptedPods: { ...kept, [name]: rfc3339(nowMs) }, ...(allowed === 0 ? { conditions: insufficient(status, nowMs) } : {}) },
  };
}
