// The CloneSet's IntOrString knobs resolved against spec.replicas (spec/cloneset.md §1.2).
import type { CloneSet } from '../../api/cloneset.js';
import { legacyScaledValue, partitionReplicas } from '../int-or-percent.js';

export interface ResolvedStrategy {
  replicas: number;
  partition: number;
  maxSurge: number;
  maxUnavailable: number;
  /** scaleStrategy.maxUnavailable; 2^31-1 when unset. */
  scaleMaxUnavailable: number;
  minReadySeconds: number;
}

export const MAX_INT32 = 2147483647;

export function resolveStrategy(cs: CloneSet): ResolvedStrategy {
  const spec = cs.spec;
  const replicas = spec?.replicas ?? 1;
  const u = spec?.updateStrategy ?? {};
  const maxSurge = u.paused ? 0 : Math.max(legacyScaledValue(u.maxSurge ?? 0, replicas, true), 0);
  // Rounded up without surge, down with it, so the two together never exceed what the user allowed.
  const maxUnavailable = Math.max(legacyScaledValue(u.maxUnavailable ?? '20%', replicas, maxSurge === 0), 0);
  const scaleMax = spec?.scaleStrategy?.maxUnavailable;
  return {
    replicas,
    partition: partitionReplicas(u.partition, replicas),
    maxSurge,
    maxUnavailable,
    scaleMaxUnavailable: scaleMax === undefined || scaleMax === null ? MAX_INT32 : legacyScaledValue(scaleMax, replicas, true),
    minReadySeconds: spec?.minReadySeconds ?? 0,
  };
}
