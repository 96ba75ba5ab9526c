// Holding a pod not-ready through its `KruisePodReady` readiness gate (kruise pkg/util/podreadiness; spec/daemon-and-
// controllers.md §4.3 "Pod not-ready mechanics"). Pure: a pod in, the pod's new status conditions out (or null when
// nothing changes); the caller writes them to pods/status with conflict retry.
import type { V1PodCondition } from '@kubernetes/client-node';
import { KruisePodReadyConditionType } from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';

/** One holder of the not-ready state, listed in the condition message. */
export interface NotReadyHolder {
  userAgent: string;
  key: string;
}

type Condition = V1PodCondition;

export function hasReadinessGate(pod: Pod | undefined, type = KruisePodReadyConditionType): boolean {
  return (pod?.spec?.readinessGates ?? []).some((g) => g.conditionType === type);
}

const findCondition = (pod: Pod, type: string): Condition | undefined => (pod.status?.conditions ?? []).find((c) => c.type === type);

function parseHolders(message: string | undefined): NotReadyHolder[] {
  if (!message) return [];
  try {
    const v = JSON.parse(message) as unknown;
    return Array.isArray(v) ? v.filter((h): h is NotReadyHolder => !!h && typeof h.userAgent === 'string' && typeof h.key === 'string') : [];
  } catch {
    return [];
  }
}

/** The condition message: holders sorted by userAgent then key, as Go's json of the sorted messageList. */
export function dumpHolders(holders: readonly NotReadyHolder[]): string {
  const sorted = [...holders].sort((a, b) => (a.userAgent === b.userAgent ? cmp(a.key, b.key) : cmp(a.userAgent, b.userAgent)));
  return JSON.stringify(sorted.map((h) => ({ userAgent: h.userAgent, key: h.key })));
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const same = (a: NotReadyHolder, b: NotReadyHolder) => a.userAgent === b.userAgent && a.key === b.key;

/**
 * Adds `holder` to the pod's KruisePodReady condition and sets it False. A pod without the gate is left alone.
 * A missing condition is appended with an empty status, as upstream does (spec §9 quirk 11).
 */
export function addNotReadyKey(pod: Pod, holder: NotReadyHolder, now: string): Condition[] | null {
  if (!hasReadinessGate(pod)) return null;
  const conditions = structuredClone(pod.status?.conditions ?? []);
  const existing = conditions.find((c) => c.type === KruisePodReadyConditionType);
  if (!existing) {
    // No status at all: Go's omitempty drops the empty string, and V1PodCondition's type cannot say so.
    conditions.push({ type: KruisePodReadyConditionType, message: dumpHolders([holder]), lastTransitionTime: now } as unknown as Condition);
  } else {
    const holders = parseHolders(existing.message);
    if (holders.some((h) => same(h, holder))) return null;
    Object.assign(existing, { status: 'False', message: dumpHolders([...holders, holder]), lastTransitionTime: now });
  }
  return recomputeReady(pod, conditions, now);
}

/** Removes `holder`; the condition becomes True when no holder is left. Null when the holder was not there. */
export function removeNotReadyKey(pod: Pod, holder: NotReadyHolder, now: string): Condition[] | null {
  if (!hasReadinessGate(pod)) return null;
  const conditions = structuredClone(pod.status?.conditions ?? []);
  const existing = conditions.find((c) => c.type === KruisePodReadyConditionType);
  if (!existing) return null;
  const holders = parseHolders(existing.message);
  const rest = holders.filter((h) => !same(h, holder));
  if (rest.length === holders.length) return null;
  Object.assign(existing, { ...(rest.length === 0 ? { status: 'True' } : {}), message: dumpHolders(rest), lastTransitionTime: now });
  return recomputeReady(pod, conditions, now);
}

/** Whether `holder` currently holds the pod not-ready (a True condition holds nobody). */
export function holdsNotReady(pod: Pod | undefined, holder: NotReadyHolder): boolean {
  const c = pod && findCondition(pod, KruisePodReadyConditionType);
  return !!c && c.status !== 'True' && parseHolders(c.message).some((h) => same(h, holder));
}

/**
 * kubelet's Ready condition when ContainersReady is True: True only if every readiness gate's condition is True,
 * else False with reason ReadinessGatesNotReady. lastTransitionTime moves only when the status flips.
 */
export function recomputeReady(pod: Pod, conditions: Condition[], now: string): Condition[] {
  const containersReady = conditions.find((c) => c.type === 'ContainersReady');
  if (containersReady?.status !== 'True') return conditions;
  const unready: string[] = [];
  for (const g of pod.spec?.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === g.conditionType);
    if (!c) unready.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`);
    else if (c.status !== 'True') unready.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status ?? ''}`);
  }
  const next: Condition = unready.length
    ? { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: unready.join(', ') }
    : { type: 'Ready', status: 'True' };
  const i = conditions.findIndex((c) => c.type === 'Ready');
  const prev = i >= 0 ? conditions[i] : undefined;
  const merged = { ...next, lastTransitionTime: (prev && prev.status === next.status ? prev.lastTransitionTime : now) as never } as Condition;
  if (prev?.lastProbeTime) merged.lastProbeTime = prev.lastProbeTime;
  if (i >= 0) conditions[i] = merged;
  else conditions.push(merged);
  return conditions;
}
