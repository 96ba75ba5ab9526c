// Deletion protection (OpenKruise v1.9 ResourcesDeletionProtection, spec/availability-guards.md §7-§8): the label
// `policy.kruise.io/delete-protection` on an object being deleted. Pure decisions in two steps (style P4): `firstLook`
// decides from the object alone, or names the counts a `Cascading` namespace or CRD needs; the handler gathers them
// and `namespaceCascading` / `crdCascading` decide. Messages are upstream's, byte for byte.

export const DeleteProtectionLabel = 'policy.kruise.io/delete-protection';
export type Protection = 'Always' | 'Cascading';

/** What is being deleted, as the handler's route says. Service and Ingress have no Cascading rule. */
export type ProtectedKind = 'workload' | 'namespace' | 'crd' | 'service';

const PREFIX = 'forbidden by ResourcesProtectionDeletion for';

export interface ProtectedObject {
  metadata?: { name?: string; labels?: Record<string, string>; deletionTimestamp?: unknown };
  spec?: { replicas?: number | null };
}

/** The CustomResources a Cascading CRD may not be deleted over: its group, storage version and plural. */
export interface CrdListRef {
  group: string;
  version: string;
  plural: string;
  listKind: string;
}

export type FirstLook =
  | { kind: 'allow' }
  | { kind: 'deny'; message: string }
  | { kind: 'count-namespace'; namespace: string }
  | { kind: 'count-crs'; ref: CrdListRef };

export interface Gates {
  ResourcesDeletionProtection: boolean;
  DeletionProtectionForCRDCascadingGate: boolean;
}

/** The label's value when it is one of the two (case-sensitive; anything else protects nothing). */
export function protectionOf(obj: ProtectedObject): Protection | undefined {
  const v = obj.metadata?.labels?.[DeleteProtectionLabel];
  return v === 'Always' || v === 'Cascading' ? v : undefined;
}

export const alwaysMessage = `${PREFIX} ${DeleteProtectionLabel}=Always`;
const cascading = `${PREFIX} ${DeleteProtectionLabel}=Cascading`;

/** The CRD's storage version (the first with `storage: true`; a v1beta1 CRD may name only `spec.version`). */
export function crdListRef(crd: { spec?: Record<string, unknown> }): CrdListRef {
  const spec = crd.spec ?? {};
  const names = (spec.names ?? {}) as { plural?: string; kind?: string; listKind?: string };
  const versions = Array.isArray(spec.versions) ? (spec.versions as { name?: string; storage?: boolean }[]) : [];
  const version = versions.find((v) => v?.storage === true)?.name ?? (typeof spec.version === 'string' ? spec.version : '');
  return { group: String(spec.group ?? ''), version, plural: names.plural ?? '', listKind: names.listKind ?? (names.kind ? `${names.kind}List` : '') };
}

/** Decides what it can from the object; gate off, already deleting, or no recognised label → allow. */
export function firstLook(kind: ProtectedKind, obj: ProtectedObject & { spec?: Record<string, unknown> }, gates: Gates): FirstLook {
  if (!gates.ResourcesDeletionProtection) return { kind: 'allow' };
  if (obj.metadata?.deletionTimestamp) return { kind: 'allow' };
  const p = protectionOf(obj);
  if (!p) return { kind: 'allow' };
  if (p === 'Always') return { kind: 'deny', message: alwaysMessage };
  switch (kind) {
    case 'service':
      return { kind: 'allow' };
    case 'workload': {
      const replicas = obj.spec?.replicas;
      return typeof replicas === 'number' && replicas > 0 ? { kind: 'deny', message: `${cascading} and replicas ${replicas}>0` } : { kind: 'allow' };
    }
    case 'namespace':
      return { kind: 'count-namespace', namespace: obj.metadata?.name ?? '' };
    case 'crd':
      // Upstream's quirk (spec §18 #16, followed): with the CRD gate off a Cascading CRD cannot be deleted at all.
      if (!gates.DeletionProtectionForCRDCascadingGate) return { kind: 'deny', message: 'feature-gate DeletionProtectionForCRDCascadingGate is not enabled' };
      return { kind: 'count-crs', ref: crdListRef(obj) };
  }
}

/** A count, or the error text of the list behind it. */
export type Count = { n: number } | { error: string };

/** Namespace Cascading: active pods first; the PVCs are only counted (`pvcs` called) when there are none. */
export async function namespaceCascading(pods: Count, pvcs: () => Promise<Count>): Promise<string | undefined> {
  if ('error' in pods) return `${PREFIX} list pods error: ${pods.error}`;
  if (pods.n > 0) return `${cascading} and active pods ${pods.n}>0`;
  const claims = await pvcs();
  if ('error' in claims) return `${PREFIX} list pvc error: ${claims.error}`;
  if (claims.n > 0) return `${cascading} and "Bound" status pvc ${claims.n}>0`;
  return undefined;
}

/** CRD Cascading over the count of its CustomResources not being deleted. */
export function crdCascading(ref: CrdListRef, crs: Count): string | undefined {
  if ('error' in crs) return `failed to list CRs of ${ref.group}/${ref.version}, Kind=${ref.listKind}: ${crs.error}`;
  return crs.n > 0 ? `${cascading} and active CRs ${crs.n}>0` : undefined;
}
