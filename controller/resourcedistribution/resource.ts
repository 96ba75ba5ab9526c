// The embedded resource of a ResourceDistribution and the copies made of it (spec/daemon-and-controllers.md §5.3).
//
// Upstream decodes spec.resource into a typed v1 Secret/ConfigMap, so fields unknown to those types never reach a
// copy; we keep the same fields. A copy is the resource with its namespace set, a controller ownerReference to the
// RD, and the hashcode / from / distributed.timestamp annotations. Beyond upstream (review H5; the webhook refuses
// them too): the resource's finalizers and ownerReferences are never copied, and a service-account token Secret is
// not distributed at all.
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  ResourceDistributionDistributedTimestampAnnotation,
  ResourceDistributionHashCodeAnnotation,
  ResourceDistributionSourceAnnotation,
  type ResourceDistribution,
} from '../../shared/api/resource-distribution.js';
import { KRUISE_API_VERSION } from '../../shared/api/meta.js';
import { controllerOf, controllerRef } from '../../shared/kube/keys.js';

export type DistributedKind = 'ConfigMap' | 'Secret';

/** The decoded spec.resource: what every copy is made of. `body` holds the kind's own top-level fields. */
export interface DistributedResource {
  kind: DistributedKind;
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  body: Record<string, unknown>;
}

/** A copy as read from the cluster (plain JSON). */
export interface CopyObject extends KubernetesObject {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}

const bodyFields: Record<DistributedKind, readonly string[]> = {
  ConfigMap: ['data', 'binaryData', 'immutable'],
  Secret: ['data', 'stringData', 'type', 'immutable'],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringMap = (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

/** spec.resource as a v1 ConfigMap or Secret, or why it is not one (upstream then gives up without retrying). */
export function decodeResource(raw: unknown): DistributedResource | { error: string } {
  if (!isObject(raw)) return { error: 'spec.resource is not an object' };
  if (raw.apiVersion !== 'v1' || (raw.kind !== 'ConfigMap' && raw.kind !== 'Secret')) {
    return { error: `unsupported resource ${String(raw.apiVersion)}/${String(raw.kind)}, only v1 Secret and v1 ConfigMap` };
  }
  const kind = raw.kind;
  const md = isObject(raw.metadata) ? raw.metadata : {};
  if (typeof md.name !== 'string' || md.name === '') return { error: 'spec.resource.metadata.name is empty' };
  for (const f of ['labels', 'annotations'] as const) {
    if (md[f] !== undefined && md[f] !== null && !isStringMap(md[f])) return { error: `spec.resource.metadata.${f} is not a map of strings` };
  }
  const body: Record<string, unknown> = {};
  for (const f of bodyFields[kind]) {
    const v = raw[f];
    if (v === undefined || v === null) continue;
    const ok = f === 'immutable' ? typeof v === 'boolean' : f === 'type' ? typeof v === 'string' : isStringMap(v);
    if (!ok) return { error: `spec.resource.${f} has the wrong type for a v1 ${kind}` };
    body[f] = v;
  }
  if (body.type === 'kubernetes.io/service-account-token') return { error: 'a Secret of type kubernetes.io/service-account-token is not distributed' };
  return {
    kind, name: md.name, body,
    labels: { ...(md.labels as Record<string, string> | undefined) },
    annotations: { ...(md.annotations as Record<string, string> | undefined) },
  };
}

/**
 * Whether `copy`'s controller is this RD: same API group, kind and name, and the same uid when both are known (as
 * upstream HEAD; v1.8.2 ignored the uid and so adopted copies left behind by a deleted namesake).
 */
export function isControlledByRd(copy: KubernetesObject, rd: ResourceDistribution): boolean {
  const ref = controllerOf(copy);
  if (!ref || ref.kind !== 'ResourceDistribution' || ref.apiVersion?.split('/')[0] !== KRUISE_API_VERSION.split('/')[0]) return false;
  if (ref.uid && rd.metadata?.uid) return ref.uid === rd.metadata.uid;
  return ref.name === rd.metadata?.name;
}

/** Namespaces the RD's last status reported as ConflictOccurred. */
export function conflictingNamespaces(rd: ResourceDistribution): string[] {
  return rd.status?.conditions?.find((c) => c.type === 'ConflictOccurred')?.failedNamespace ?? [];
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** The content the apiserver would store for these fields: stringData folded into data, Secret type defaulted. */
function storedContent(kind: DistributedKind, o: Record<string, unknown>): Record<string, unknown> {
  if (kind === 'ConfigMap') return { data: o.data ?? {}, binaryData: o.binaryData ?? {}, immutable: o.immutable ?? false };
  const data: Record<string, string> = { ...(o.data as Record<string, string> | undefined) };
  for (const [k, v] of Object.entries((o.stringData as Record<string, string> | undefined) ?? {})) data[k] = b64(v);
  return { data, type: o.type || 'Opaque', immutable: o.immutable ?? false };
}

/**
 * Upstream updates a copy only when it differs from the resource outside `metadata` and `status`, so label or
 * annotation edits (in the RD or on the copy) are not propagated or reverted. We compare what the apiserver stores,
 * so a Secret written with stringData or without a type is not rewritten on every pass.
 */
export function needsUpdate(copy: CopyObject, resource: DistributedResource): boolean {
  return !sameJson(storedContent(resource.kind, copy as Record<string, unknown>), storedContent(resource.kind, resource.body));
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/**
 * The object to create in `namespace`, or — given the `existing` copy — to replace it with: the existing copy's
 * labels, annotations and finalizers stay (the resource wins on a shared key), and the only ownerReference is this
 * RD's controller reference.
 */
export function buildCopy(rd: ResourceDistribution, resource: DistributedResource, namespace: string, hash: string, now: Date, existing?: CopyObject): CopyObject {
  const ownerReferences = [controllerRef(rd, { apiVersion: KRUISE_API_VERSION, kind: 'ResourceDistribution' })];
  const old = existing?.metadata;
  const finalizers = [...(old?.finalizers ?? [])].sort();
  return {
    apiVersion: 'v1',
    kind: resource.kind,
    metadata: {
      name: resource.name,
      namespace,
      labels: { ...old?.labels, ...resource.labels },
      annotations: {
        ...old?.annotations,
        ...resource.annotations,
        [ResourceDistributionHashCodeAnnotation]: hash,
        [ResourceDistributionSourceAnnotation]: rd.metadata?.name ?? '',
        [ResourceDistributionDistributedTimestampAnnotation]: now.toISOString().replace(/\.\d+Z$/, 'Z'),
      },
      ...(finalizers.length ? { finalizers } : {}),
      ownerReferences,
    },
    ...structuredClone(resource.body),
  };
}
