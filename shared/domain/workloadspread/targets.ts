// The workload kinds a WorkloadSpread may target without a whitelist (spec/availability-guards.md §10.4) and how an
// ownerRef or targetRef apiVersion splits into group and version (apimachinery schema.ParseGroupVersion).

export interface GroupKind { group: string; kind: string }

export const KNOWN_WORKLOADS: readonly GroupKind[] = [
  { group: 'apps', kind: 'Deployment' },
  { group: 'apps.kruise.io', kind: 'CloneSet' },
  { group: 'apps', kind: 'ReplicaSet' },
  { group: 'batch', kind: 'Job' },
  { group: 'apps', kind: 'StatefulSet' },
  { group: 'apps.kruise.io', kind: 'StatefulSet' },
];

export const isKnownWorkload = (gk: GroupKind): boolean => KNOWN_WORKLOADS.some((k) => k.group === gk.group && k.kind === gk.kind);

/** schema.ParseGroupVersion: "" → core; "v1" → core v1; "g/v" → g; more than one "/" → error (undefined). */
export function parseGroupVersion(apiVersion: string | null | undefined): { group: string; version: string } | undefined {
  // A missing field decodes in Go as "" (admission objects are only type-checked, null is allowed).
  if (typeof apiVersion !== 'string' || apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}
