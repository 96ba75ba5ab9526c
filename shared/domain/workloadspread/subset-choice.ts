// Which subset a pod goes to on create, and the bookkeeping of a delete (spec/availability-guards.md §12.2, §13):
// pure decisions over one copy of the WorkloadSpread. The caller supplies the copy (informer or apiserver), the pod's
// version, the workload's replicas when a subset is a percentage, the clock and, for a pod named by generateName
// only, a fresh UUID; it writes `status` (when returned) with the copy's resourceVersion and retries on Conflict.
import type { Pod } from '../../api/meta.js';
import { SubsetSchedulable, type WorkloadSpread, type WorkloadSpreadStatus, type WorkloadSpreadSubsetStatus } from '../../api/workload-spread.js';
import { subsetLimit } from './max-replicas.js';

/** metav1.Time on the wire: RFC 3339, whole seconds, UTC. */
export const metaTime = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

export interface Decision {
  /** The chosen subset; undefined: the pod is admitted unchanged. */
  subset?: string;
  /** The whole new status to write; undefined: nothing to write. */
  status?: WorkloadSpreadStatus;
  /** The creatingPods key made for a pod without a name (written into the annotation's uid). */
  generatedUID?: string;
}

export interface ChoiceInput {
  version: string;
  /** The workload's replicas, for percentages (0 when none is needed). */
  replicas: number;
  now: Date;
  /** Called at most once, only for a pod without a name that gets a record. */
  newUID: () => string;
}

/** One subset and no maxReplicas: every pod goes there without bookkeeping. */
export function onlyUnlimitedSubset(ws: WorkloadSpread): string | undefined {
  const subsets = ws.spec?.subsets ?? [];
  return subsets.length === 1 && (subsets[0]!.maxReplicas === undefined || subsets[0]!.maxReplicas === null) ? subsets[0]!.name : undefined;
}

const unschedulable = (s: { conditions?: Array<{ type: string; status: string }> } | undefined) =>
  (s?.conditions ?? []).some((c) => c.type === SubsetSchedulable && c.status === 'False');

/** StatefulSet targets: by ordinal, skipping unschedulable subsets (their capacity is not counted). No status write. */
export function statefulSetSubset(ws: WorkloadSpread, podName: string): string | undefined {
  const m = /^(.*)-([0-9]+)$/.exec(podName);
  const parsed = m ? Number(m[2]) : -1;
  const ordinal = Number.isSafeInteger(parsed) && parsed <= 2147483647 ? parsed : -1;
  let threshold = 0;
  for (const s of ws.spec?.subsets ?? []) {
    if (unschedulable(ws.status?.subsetStatuses?.find((st) => st.name === s.name))) continue;
    threshold += typeof s.maxReplicas === 'number' ? s.maxReplicas : s.maxReplicas === undefined || s.maxReplicas === null ? 2147483647 : intValue(s.maxReplicas);
    if (ordinal < threshold) return s.name;
  }
  return undefined;
}

/** intstr.IntValue of a string: Atoi, 0 on error. */
const intValue = (s: string) => (/^[+-]?\d+$/.test(s) ? Number(s) : 0);

/** The statuses of `version`, initialised from the spec when there are none yet (§12.2 step 2). */
function versionStatuses(ws: WorkloadSpread, input: ChoiceInput): { status: WorkloadSpreadStatus; list: WorkloadSpreadSubsetStatus[] } {
  // A copy down to the subset entries of this version; the decisions replace (never edit) the maps they change, so
  // the rest of the status is shared with `ws` (a deep copy of a large status cost ~1 µs per record per pod).
  const status: WorkloadSpreadStatus = { ...(ws.status ?? {}), versionedSubsetStatuses: { ...(ws.status?.versionedSubsetStatuses ?? {}) } };
  const versioned = status.versionedSubsetStatuses!;
  let list = versioned[input.version]?.map((s) => ({ ...s }));
  if (list && list.length > 0) versioned[input.version] = list;
  else {
    list = (ws.spec?.subsets ?? []).map((s) => ({ name: s.name, replicas: 0, missingReplicas: subsetLimit(s.maxReplicas, input.replicas) }));
    versioned[input.version] = list;
  }
  return { status, list };
}

const recordedIn = (list: WorkloadSpreadSubsetStatus[], key: string) =>
  key ? list.find((s) => (s.creatingPods && Object.hasOwn(s.creatingPods, key)) || (s.deletingPods && Object.hasOwn(s.deletingPods, key))) : undefined;

/** §12.2 steps 2–6 for a pod CREATE. */
export function chooseOnCreate(ws: WorkloadSpread, pod: Pod, input: ChoiceInput): Decision {
  const { status, list } = versionStatuses(ws, input);
  const name = pod.metadata?.name ?? '';
  const recorded = recordedIn(list, name);
  if (recorded) return { subset: recorded.name };
  const s = list.find((x) => !unschedulable(x) && (x.missingReplicas > 0 || x.missingReplicas === -1));
  if (!s) return {};
  if (s.missingReplicas === -1) return { subset: s.name };
  const key = name || input.newUID();
  s.creatingPods = { ...(s.creatingPods ?? {}), [key]: metaTime(input.now) };
  if (s.missingReplicas > 0) s.missingReplicas--;
  return { subset: s.name, status, ...(name ? {} : { generatedUID: key }) };
}

/** §13 step 6 for a pod DELETE or eviction: the new status, or undefined when nothing is recorded. */
export function recordDeletion(ws: WorkloadSpread, pod: Pod, subset: string, input: ChoiceInput): WorkloadSpreadStatus | undefined {
  const { status, list } = versionStatuses(ws, input);
  const name = pod.metadata?.name ?? '';
  if (recordedIn(list, name)) return undefined;
  const s = list.find((x) => x.name === subset);
  if (!s || s.missingReplicas === -1) return undefined;
  s.deletingPods = { ...(s.deletingPods ?? {}), [name]: metaTime(input.now) };
  if (s.missingReplicas >= 0) s.missingReplicas++;
  return status;
}
