// updateStrategy.partition, maxUnavailable and maxSurge scaled against a pod count (SidecarSet: spec/daemon-and-
// controllers.md §6.5 step 3; CloneSet: spec/cloneset.md §1.2), with the two different upstream parsers they go through.
import type { IntOrString } from '../api/meta.js';
import { goFloatToInt, goParseFloat } from './go-parse-float.js';

/** Go strconv.Atoi: optional sign, decimal digits only. */
function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/**
 * OpenKruise's util.GetScaledValueFromIntOrPercent (v1.9.0 CloneSet webhook, and partition everywhere): a number as
 * is; a string must end in "%" and the rest is a Go float ("12.5%"), scaled against `total` and rounded. The value is
 * a bigint because Go's float-to-int conversion of a huge or non-finite percentage yields math.MinInt64.
 */
export function scaledValue(v: IntOrString | undefined | null, total: number, roundUp: boolean): { value: bigint } | { error: string } {
  if (v === undefined || v === null) return { error: 'nil value for IntOrString' };
  if (typeof v === 'number') return { value: BigInt(v) };
  if (!v.endsWith('%')) return { error: 'invalid type: string is not a percentage' };
  const f = goParseFloat(v.slice(0, -1));
  if ('error' in f) return f;
  const scaled = (f.value * total) / 100;
  return { value: goFloatToInt(roundUp ? Math.ceil(scaled) : Math.floor(scaled)) };
}

/**
 * util.CalculatePartitionReplicas: a number as is; "P%" of `total` rounded up, but never all pods when P < 100 and
 * there are several; clamped to [0, total]. An unparseable value (e.g. "10" without %) counts as 0.
 */
export function partitionReplicas(partition: IntOrString | undefined, total: number): number {
  if (partition === undefined || partition === null) return 0;
  let value: number;
  if (typeof partition === 'number') value = partition;
  else {
    const scaled = scaledValue(partition, total, true);
    if ('error' in scaled) return 0;
    value = Number(scaled.value);
    if (total > 1 && value === total && partition !== '100%') value = total - 1;
  }
  return Math.max(Math.min(value, total), 0);
}

/**
 * intstr.GetValueFromIntOrPercent(maxUnavailable, total, roundUp=true): a number as is; a string has every "%" removed
 * and is read as a percentage (so "3" means 3%) rounded up. Unset means 1; unparseable means 0.
 */
export function maxUnavailableValue(maxUnavailable: IntOrString | undefined, total: number): number {
  if (maxUnavailable === undefined || maxUnavailable === null) return 1;
  if (typeof maxUnavailable === 'number') return maxUnavailable;
  const v = atoi(maxUnavailable.replaceAll('%', ''));
  return v === undefined ? 0 : Math.ceil((v * total) / 100);
}

/**
 * intstr.GetValueFromIntOrPercent (Kubernetes' legacy parser): a number as is; a string has every "%" removed and is
 * read as a percentage of `total`, rounded up or down. Unparseable means 0 (the validating webhook refuses it first).
 */
export function legacyScaledValue(value: IntOrString, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const v = atoi(value.replaceAll('%', ''));
  if (v === undefined) return 0;
  const scaled = (v * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
