// ResourceDistribution status (spec/daemon-and-controllers.md §5.3 steps 5–6): counts, all six conditions in their
// fixed order, and which failures are worth a retry.
import {
  ResourceDistributionConditionTypes,
  type ResourceDistribution,
  type ResourceDistributionCondition,
  type ResourceDistributionStatus,
} from '../../shared/api/resource-distribution.js';
import type { Failure } from './plan.js';

export const OperationSucceeded = 'Succeeded';

/** metav1.Time's JSON form: RFC 3339, whole seconds, UTC. */
export const metav1Time = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * The status after a pass. A condition is True with the last failure's message as `reason` and every failed
 * namespace listed, else False/Succeeded. `lastTransitionTime` moves only when the condition's status flips (or
 * there were no conditions before). Zero counts are left out, as Go's omitempty does.
 */
export function computeStatus(rd: ResourceDistribution, desired: number, succeeded: number, failures: readonly Failure[], now: Date): ResourceDistributionStatus {
  const old = rd.status?.conditions ?? [];
  const conditions: ResourceDistributionCondition[] = ResourceDistributionConditionTypes.map((type) => {
    const mine = failures.filter((f) => f.condition === type);
    const status = mine.length > 0 ? 'True' : 'False';
    const previous = old.find((c) => c.type === type);
    const lastTransitionTime = old.length > 0 && previous?.status === status && previous.lastTransitionTime ? previous.lastTransitionTime : metav1Time(now);
    return mine.length > 0
      ? { type, status, lastTransitionTime, reason: mine[mine.length - 1]!.message, failedNamespace: mine.map((f) => f.namespace) }
      : { type, status, lastTransitionTime, reason: OperationSucceeded };
  });
  const status: ResourceDistributionStatus = {};
  if (desired) status.desired = desired;
  if (succeeded) status.succeeded = succeeded;
  if (desired - succeeded) status.failed = desired - succeeded;
  if (rd.metadata?.generation) status.observedGeneration = rd.metadata.generation;
  status.conditions = conditions;
  return status;
}

/** Whether writing `next` would change anything (key order and absent-vs-empty ignored, as DeepEqual on Go structs). */
export function sameStatus(current: ResourceDistributionStatus | undefined, next: ResourceDistributionStatus): boolean {
  const norm = (s: ResourceDistributionStatus | undefined) => ({
    desired: s?.desired ?? 0, succeeded: s?.succeeded ?? 0, failed: s?.failed ?? 0, observedGeneration: s?.observedGeneration ?? 0,
    conditions: (s?.conditions ?? []).map((c) => [c.type, c.status, c.lastTransitionTime ?? '', c.reason ?? '', (c.failedNamespace ?? []).join(',')].join('|')),
  });
  return JSON.stringify(norm(current)) === JSON.stringify(norm(next));
}

/** A JSON merge patch that replaces the whole status: fields `next` leaves out are removed (null). */
export function statusPatch(next: ResourceDistributionStatus): { status: Record<string, unknown> } {
  return {
    status: {
      desired: next.desired ?? null, succeeded: next.succeeded ?? null, failed: next.failed ?? null,
      observedGeneration: next.observedGeneration ?? null, conditions: next.conditions ?? null,
    },
  };
}

/** Get/Create/Update/Delete failures are retried with backoff; conflicts and missing namespaces wait for an event. */
export function retryableFailures(failures: readonly Failure[]): Failure[] {
  return failures.filter((f) => f.condition !== 'ConflictOccurred' && f.condition !== 'NamespaceNotExists');
}

/** One line per failing condition, as upstream's aggregate of field.InternalError values. */
export function failureSummary(failures: readonly Failure[]): string {
  const byType = new Map<string, Failure>();
  for (const f of failures) byType.set(f.condition, f);
  return [...byType.entries()].map(([type, f]) => `${type}: Internal error: ${f.message}`).join('; ');
}
