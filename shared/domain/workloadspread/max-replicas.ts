// A subset's maxReplicas as the runtime reads it (Kubernetes intstr.GetScaledValueFromIntOrPercent, rounding up):
// an int as is; a string must be "<integer>%" and scales against the workload's replicas. The validating webhook
// uses the legacy parser instead (validation/workload-spread.ts), which accepts "50" — §18 #7.
import type { IntOrString } from '../../api/meta.js';
import type { WorkloadSpread } from '../../api/workload-spread.js';

/** The scaled value, or undefined when the value does not parse. */
export function scaledMaxReplicas(v: IntOrString, replicas: number): number | undefined {
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) return undefined;
  const body = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(body)) return undefined;
  return Math.ceil((Number(body) * replicas) / 100);
}

/**
 * −1 for an unlimited subset, else the limit. A string the strict parser refuses but the validating webhook admitted
 * ("50", read by intstr.GetValueFromIntOrPercent as 50 %) is read as the webhook read it: upstream counts it 0 in the
 * webhook and fails every status computation in the controller (§18 #7; docs/compatibility.md). Anything else
 * unparsable counts 0.
 */
export function subsetLimit(v: IntOrString | undefined | null, replicas: number): number {
  if (v === undefined || v === null) return -1;
  const strict = scaledMaxReplicas(v, replicas);
  if (strict !== undefined) return strict;
  const legacy = typeof v === 'string' && /^[+-]?\d+$/.test(v.replaceAll('%', '')) ? Number(v.replaceAll('%', '')) : undefined;
  return legacy === undefined ? 0 : Math.ceil((legacy * replicas) / 100);
}

/** Whether the workload's replica count is needed: some subset's maxReplicas is a string ending in "%". */
export const needsReplicas = (ws: WorkloadSpread): boolean =>
  (ws.spec?.subsets ?? []).some((s) => typeof s.maxReplicas === 'string' && s.maxReplicas.endsWith('%'));
