// The CloneSet `Progressing` condition OpenKruise v1.9.0 added with spec.progressDeadlineSeconds
// (pkg/controller/cloneset/cloneset_status.go calculateProgressingStatus, utils SetCloneSetCondition; spec/cloneset.md
// §3.10). Pure: the status computed this round in, the condition set on it, the requeue delay out.
import type { CloneSet, CloneSetCondition, CloneSetStatus } from '../../api/cloneset.js';
import { MAX_INT32 } from './strategy-values.js';

export const ProgressingCondition = 'Progressing';

/** metav1.Time on the wire: RFC 3339, whole seconds, UTC. */
const metaTime = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export const hasProgressDeadline = (cs: CloneSet): boolean => {
  const d = cs.spec?.progressDeadlineSeconds;
  return d !== undefined && d !== null && d !== MAX_INT32;
};

const progressingOf = (conditions: readonly CloneSetCondition[] | undefined) => conditions?.find((c) => c.type === ProgressingCondition);

/**
 * SetCloneSetCondition: the same status and reason leave the condition as it is (times included); a new reason with
 * the same status keeps lastTransitionTime; the condition moves to the end of the list.
 */
export function setCondition(conditions: CloneSetCondition[], next: CloneSetCondition): CloneSetCondition[] {
  const current = conditions.find((c) => c.type === next.type);
  if (current && current.status === next.status && (current.reason ?? '') === (next.reason ?? '')) return conditions;
  const kept = current && current.status === next.status ? { ...next, lastTransitionTime: current.lastTransitionTime } : next;
  return [...conditions.filter((c) => c.type !== next.type), kept];
}

/**
 * Sets (or, without a deadline, removes) `Progressing` on `status`, whose conditions start as last round's. Returns
 * the delay after which the deadline must be looked at again (ms), or undefined when nothing is pending.
 */
export function applyProgressing(cs: CloneSet, status: CloneSetStatus, nowMs: number): number | undefined {
  const conditions = status.conditions ?? [];
  if (!hasProgressDeadline(cs)) {
    const left = conditions.filter((c) => c.type !== ProgressingCondition);
    if (left.length) status.conditions = left;
    else delete status.conditions;
    return undefined;
  }
  const replicas = cs.spec?.replicas ?? 1;
  const deadlineMs = cs.spec!.progressDeadlineSeconds! * 1000;
  const cond = (st: 'True' | 'False', reason: string, message: string): CloneSetCondition =>
    ({ type: ProgressingCondition, status: st, lastUpdateTime: metaTime(nowMs), lastTransitionTime: metaTime(nowMs), reason, message });
  const previous = progressingOf(conditions);
  let next: CloneSetCondition;
  let pending = false;
  if (status.currentRevision === status.updateRevision && status.replicas === replicas && status.updatedReplicas === replicas
    && (status.updatedAvailableReplicas ?? 0) === replicas) {
    next = cond('True', 'CloneSetAvailable', 'CloneSet is available');
  } else if (cs.spec?.updateStrategy?.paused) {
    next = cond('True', 'CloneSetPaused', 'CloneSet is paused');
  } else if ((status.expectedUpdatedReplicas ?? 0) < replicas && (status.expectedUpdatedReplicas ?? 0) <= (status.updatedAvailableReplicas ?? 0)) {
    next = cond('True', 'ProgressPartitionAvailable', 'CloneSet has been paused due to partition ready');
  } else if (previous && (previous.reason === 'ProgressDeadlineExceeded' || Date.parse(String(previous.lastUpdateTime ?? 0)) + deadlineMs < nowMs)) {
    // Upstream compares with the lastUpdateTime of whatever Progressing condition was there, as it was last written.
    next = cond('False', 'ProgressDeadlineExceeded', `CloneSet revision ${status.updateRevision ?? ''} has timed out progressing`);
  } else {
    next = cond('True', 'CloneSetUpdated', 'CloneSet is progressing');
    pending = true;
  }
  status.conditions = setCondition(conditions, next);
  if (!pending) return undefined;
  const since = Date.parse(String(progressingOf(status.conditions)?.lastUpdateTime ?? metaTime(nowMs)));
  const after = since + deadlineMs - nowMs;
  // Kubernetes' AddAfter skew: a second more unless the deadline is under a second away.
  return after < 1000 ? Math.max(after, 0) : after + 1000;
}

/** hasProgressingConditionChanged: appeared, went, or changed status or reason (a status write is due). */
export function progressingChanged(old: CloneSetStatus | undefined, next: CloneSetStatus): boolean {
  const a = progressingOf(old?.conditions);
  const b = progressingOf(next.conditions);
  if (!a && !b) return false;
  if (!a || !b) return true;
  return a.status !== b.status || (a.reason ?? '') !== (b.reason ?? '');
}
