// The PodUnavailableBudget controller's status computation (spec/availability-guards.md §5.3 steps 3-5), pure: from
// the PUB, its listed pods and the expected count, the status to write, the records that timed out, and when to look
// again.
import type { Pod } from '../../api/meta.js';
import type { PodUnavailableBudget, PodUnavailableBudgetStatus } from '../../api/pod-unavailable-budget.js';
import { isPubConsistent, isPubReady } from './pod-state.js';

/** A disrupted pod should be gone this long after admission; an unavailable one should show as unavailable. */
export const DELETION_TIMEOUT_MS = 20_000;
export const UPDATE_TIMEOUT_MS = 10_000;

/**
 * k8s intstr.GetScaledValueFromIntOrPercent: an int as is; a string must be `<int>%`, scaled against `total`,
 * rounded up. Errors say what upstream's event says.
 */
export function scaledUp(v: number | string, total: number): number | { error: string } {
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) return { error: 'invalid value for IntOrString: invalid type: string is not a percentage' };
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) return { error: `invalid value for IntOrString: invalid value "${v}": strconv.Atoi: parsing "${digits}": invalid syntax` };
  return Math.ceil((Number(digits) * total) / 100);
}

/** desiredAvailable: expected − maxUnavailable (floored at 0), else minAvailable (an int is not capped). */
export function desiredAvailable(pub: PodUnavailableBudget, expected: number): number | { error: string } {
  const spec = pub.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const max = scaledUp(spec.maxUnavailable, expected);
    return typeof max === 'number' ? Math.max(expected - max, 0) : max;
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) return scaledUp(spec.minAvailable, expected);
  return 0;
}

export interface StatusInput {
  pub: PodUnavailableBudget;
  /** Listed pods (active only). */
  pods: readonly Pod[];
  expected: number;
  desired: number;
  nowMs: number;
}

export interface StatusPlan {
  status: PodUnavailableBudgetStatus;
  /** Disrupted records that timed out: a `NotDeleted` event on each of these pods. */
  notDeleted: string[];
  /** Milliseconds to the earliest record's time-out, when one is still pending. */
  recheckMs?: number;
}

const parse = (t: string) => { const ms = Date.parse(t); return Number.isNaN(ms) ? 0 : ms; };

export function planStatus(i: StatusInput): StatusPlan {
  const st = i.pub.status;
  const disrupted: Record<string, string> = {};
  const unavailable: Record<string, string> = {};
  const notDeleted: string[] = [];
  let recheck: number | undefined;
  const soonest = (at: number) => { if (at > i.nowMs && (recheck === undefined || at < recheck)) recheck = at; };
  const hasRecords = !!st?.disruptedPods || !!st?.unavailablePods;
  let current = 0;
  for (const pod of i.pods) {
    const name = pod.metadata?.name ?? '';
    if (hasRecords) {
      const d = st?.disruptedPods?.[name];
      if (d !== undefined) {
        // Due at `now` counts as expired: a requeue timed for the due moment must find it gone (upstream's strict
        // Before leaves a record due exactly now with neither expiry nor a positive recheck).
        const at = parse(d) + DELETION_TIMEOUT_MS;
        if (at <= i.nowMs) notDeleted.push(name);
        else { disrupted[name] = d; soonest(at); }
      }
      const u = st?.unavailablePods?.[name];
      if (u !== undefined) {
        const at = parse(u) + UPDATE_TIMEOUT_MS;
        if (at > i.nowMs) { unavailable[name] = u; soonest(at); }
      }
    }
    if (disrupted[name] === undefined && unavailable[name] === undefined && isPubReady(pod) && isPubConsistent(pod)) current++;
  }
  const status: PodUnavailableBudgetStatus = {
    observedGeneration: i.pub.metadata?.generation ?? 0,
    ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
    ...(Object.keys(unavailable).length ? { unavailablePods: unavailable } : {}),
    unavailableAllowed: Math.max(current - i.desired, 0),
    currentAvailable: current,
    desiredAvailable: i.desired,
    totalReplicas: i.expected,
  };
  return { status, notDeleted, ...(recheck !== undefined ? { recheckMs: recheck - i.nowMs } : {}) };
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) => {
  const x = a ?? {};
  const y = b ?? {};
  const kx = Object.keys(x);
  return kx.length === Object.keys(y).length && kx.every((k) => y[k] !== undefined && parse(y[k]!) === parse(x[k]!));
};

/** All seven fields equal (maps by content; empty ≡ absent): nothing to write. */
export function sameStatus(a: PodUnavailableBudgetStatus | undefined, b: PodUnavailableBudgetStatus): boolean {
  if (!a) return false;
  return (a.observedGeneration ?? 0) === (b.observedGeneration ?? 0) && a.unavailableAllowed === b.unavailableAllowed
    && a.currentAvailable === b.currentAvailable && a.desiredAvailable === b.desiredAvailable && a.totalReplicas === b.totalReplicas
    && sameMap(a.disruptedPods, b.disruptedPods) && sameMap(a.unavailablePods, b.unavailablePods);
}
