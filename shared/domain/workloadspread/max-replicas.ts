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

/** −1 for an unlimited subset; an unparsable value counts 0 (the webhook's initialisation, §12.2 step 2). */
export function subsetLimit(v: IntOrString | undefined, replicas: number): number {
  if (v === undefined || v === null) return -1;
  return scaledMaxReplicas(v, replicas) ?? 0;
}

/** Whether the workload's replica count is needed: some subset's maxReplicas is a string ending in "%". */
export const needsReplicas = (ws: WorkloadSpread): boolean =>
  (ws.spec?.subsets ?? []).some((s) => typeof s.maxReplicas === 'string' && s.maxReplicas.endsWith('%'));
