// updateStrategy.partition, maxUnavailable and maxSurge scaled against a pod count (SidecarSet: spec/daemon-and-
// controllers.md §6.5 step 3; CloneSet: spec/cloneset.md §1.2), with the two different upstream parsers they go through.
import type { IntOrString } from '../api/meta.js';

/** Go strconv.Atoi: optional sign, decimal digits only. */
function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/** Go strconv.ParseFloat, for the decimal forms a percentage takes. */
function parseFloat64(s: string): number | undefined {
  return /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s) ? Number(s) : undefined;
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
    const f = partition.endsWith('%') ? parseFloat64(partition.slice(0, -1)) : undefined;
    if (f === undefined) return 0;
    value = Math.ceil((f * total) / 100);
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
