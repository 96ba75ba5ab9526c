// CloneSet status (spec/cloneset.md §1.3, §3.10): counters over the active owned pods, the currentRevision rule, the
// selector string, and whether a write is due.
import type { CloneSet, CloneSetCondition, CloneSetStatus } from '../../api/cloneset.js';
import type { LabelSelector, Pod } from '../../api/meta.js';
import { partitionReplicas } from '../int-or-percent.js';
import { isAvailable, isUpdateReady, matchesRevision } from './pod-predicates.js';
import { progressingChanged } from './progressing.js';

/** metav1.FormatLabelSelector of the converted selector: requirements sorted by key, values sorted. */
export function labelSelectorString(sel: LabelSelector | undefined): string {
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(sel?.matchLabels ?? {})) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of sel?.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    const text = e.operator === 'In' ? `${e.key} in (${values})` : e.operator === 'NotIn' ? `${e.key} notin (${values})`
      : e.operator === 'Exists' ? e.key : `!${e.key}`;
    reqs.push({ key: e.key, text });
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.text).join(',');
}

export interface StatusInput {
  cs: CloneSet;
  pods: readonly Pod[];
  updateRevision: string;
  currentRevision: string;
  collisionCount: number;
  /** FailedScale/FailedUpdate from this round, added once. */
  failures?: CloneSetCondition[];
  nowMs: number;
}

export function computeStatus(input: StatusInput): CloneSetStatus {
  const m = input.cs.spec?.minReadySeconds ?? 0;
  const replicas = input.cs.spec?.replicas ?? 1;
  const s: CloneSetStatus = {
    observedGeneration: input.cs.metadata?.generation,
    replicas: 0, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 0, updatedReadyReplicas: 0, updatedAvailableReplicas: 0,
    updateRevision: input.updateRevision, currentRevision: input.currentRevision, collisionCount: input.collisionCount,
    labelSelector: labelSelectorString(input.cs.spec?.selector),
  };
  for (const pod of input.pods) {
    s.replicas++;
    const ready = isUpdateReady(pod, 0, input.nowMs);
    const available = isAvailable(pod, m, input.nowMs);
    if (ready) s.readyReplicas++;
    if (available) s.availableReplicas++;
    if (matchesRevision(pod, input.updateRevision)) {
      s.updatedReplicas++;
      if (ready) s.updatedReadyReplicas++;
      if (available) s.updatedAvailableReplicas!++;
    }
  }
  const partition = input.cs.spec?.updateStrategy?.partition;
  s.expectedUpdatedReplicas = replicas - partitionReplicas(partition, replicas);
  if (s.updatedReplicas === s.replicas && s.replicas === replicas) s.currentRevision = input.updateRevision;
  const conditions = [...(input.cs.status?.conditions ?? [])];
  for (const f of input.failures ?? []) if (!conditions.some((c) => c.type === f.type)) conditions.push(f);
  if (conditions.length) s.conditions = conditions;
  return s;
}


const COUNTERS = ['replicas', 'readyReplicas', 'availableReplicas', 'updatedReplicas', 'updatedReadyReplicas', 'updatedAvailableReplicas', 'expectedUpdatedReplicas',
  'updateRevision', 'currentRevision', 'labelSelector'] as const;

/**
 * A write is due when the generation grew, a counter, revision or selector changed, or the Progressing condition's
 * status or reason did (v1.9.0); a new failure condition alone waits.
 */
export function statusChanged(old: CloneSetStatus | undefined, next: CloneSetStatus): boolean {
  if ((next.observedGeneration ?? 0) > (old?.observedGeneration ?? 0)) return true;
  if (progressingChanged(old, next)) return true;
  const norm = (v: string | number | undefined) => (v === undefined || v === 0 || v === '' ? '' : v);
  return COUNTERS.some((k) => norm(old?.[k]) !== norm(next[k]));
}
