// The ControllerRevision the SidecarSet controller records for each SidecarSet version (spec/daemon-and-controllers.md
// §6.8) and the injection webhook restores from (spec/webhooks.md §2.3). Data, hash and name follow upstream byte for
// byte: history_control getPatch (typed encode → map → json.Marshal) and k8s controller/history's FNV-1 naming.
import type { SidecarSet } from '../api/sidecarset.js';
import { goJsonValue, goNormalize, OMITEMPTY, type GoSchema } from './go-json.js';
import { safeEncode, sidecarContainerSchema } from './sidecarset-hash.js';

/** The spec fields a revision stores; restoring replaces the spec with exactly these. */
export const REVISION_SPEC_FIELDS = ['volumes', 'containers', 'initContainers', 'imagePullSecrets', 'patchPodMetadata'] as const;

/** Label k8s controller/history puts the revision hash under. */
export const ControllerRevisionHashLabel = 'controller.kubernetes.io/hash';

const revisionSchema: GoSchema = {
  ...sidecarContainerSchema,
  LocalObjectReference: [['name', 'string', OMITEMPTY]],
  SidecarSetPatchPodMetadata: [
    ['annotations', 'map[string]string', OMITEMPTY],
    ['patchPolicy', 'string', OMITEMPTY],
  ],
};

/** A typed list field as Go's omitempty leaves it: an empty or absent list is absent, i.e. null in the map. */
function typedList(value: unknown, type: string): unknown {
  return Array.isArray(value) && value.length > 0 ? goNormalize(value, type, revisionSchema) : null;
}

/**
 * Volumes without a Go schema (every volume source down to ephemeral PVC templates is not worth its weight): nulls
 * dropped as Go drops nil pointers. Explicit zero values and unknown fields survive here, where Go would drop them
 * (docs/compatibility.md).
 */
function looseVolumes(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return null;
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, strip(x)]));
  };
  return strip(value);
}

/**
 * The revision's data, as the bytes upstream writes: `{"spec":{"$patch":"replace","containers":…,"imagePullSecrets":…,
 * "initContainers":…,"patchPodMetadata":…,"volumes":…}}` with every object's keys sorted and absent fields null.
 */
export function revisionData(set: SidecarSet): string {
  const spec = set.spec ?? {};
  return `{"spec":${goJsonValue({
    $patch: 'replace',
    containers: typedList(spec.containers, '[]SidecarContainer'),
    imagePullSecrets: typedList(spec.imagePullSecrets, '[]LocalObjectReference'),
    initContainers: typedList(spec.initContainers, '[]SidecarContainer'),
    patchPodMetadata: typedList(spec.patchPodMetadata, '[]SidecarSetPatchPodMetadata'),
    volumes: looseVolumes(spec.volumes),
  })}}`;
}

/** The canonical bytes of stored revision data (an object, or its JSON text), for comparing with revisionData. */
export function canonicalRevisionData(data: unknown): string {
  if (typeof data === 'string') {
    try {
      return goJsonValue(JSON.parse(data));
    } catch {
      return data;
    }
  }
  return goJsonValue(data);
}

/** Go's hash/fnv New32 (FNV-1, not FNV-1a) over UTF-8 bytes. */
export function fnv1Hash32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h;
}

/**
 * history.HashControllerRevision: FNV-1 32 over the data bytes, then the decimal collision count when there is one,
 * printed as a decimal uint32 and safe-encoded (e.g. "5f6d95f777").
 */
export function revisionHash(data: string, collisionCount: number | undefined): string {
  let h = fnv1Hash32(Buffer.from(data, 'utf8'));
  if (collisionCount !== undefined) h = fnv1Hash32(Buffer.from(String(collisionCount), 'utf8'), h);
  return safeEncode(String(h));
}

/** history.ControllerRevisionName: `<parent>-<hash>`, the parent name cut to 223 characters. */
export function revisionName(parentName: string, hash: string): string {
  return `${parentName.length > 223 ? parentName.slice(0, 223) : parentName}-${hash}`;
}
