// In-place update of CloneSet pods (spec/cloneset.md §3.8): whether a revision change can be done in place, the
// pod write that starts it (labels, state annotation, images or the grace annotation) and the Refresh that finishes
// grace periods and detects completion. Pure: pods in, new pods out; the controller writes them and the
// InPlaceUpdateReady condition (controller/cloneset/pod-conditions.ts).
import fjp from 'fast-json-patch';
import type { InPlaceUpdateGrace } from '../../api/cloneset.js';
import { LifecycleStateLabel, LifecycleTimestampAnnotation, PodRevisionLabel, PodTemplateHashLabel } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { goJsonValue } from '../go-json.js';
import { readInPlaceGrace, readInPlaceState, rfc3339, setGrace, setState, sortedMap } from './inplace-annotations.js';
import { matchesRevision } from './pod-predicates.js';
import { hashOf } from './revision.js';

type Json = Record<string, any>;

/** Labels and annotations to set (string) or remove (null): the two-way strategic merge patch of template metadata. */
export interface MetadataPatch { labels?: Record<string, string | null>; annotations?: Record<string, string | null> }

export interface UpdateSpec {
  revision: string;
  containerImages: Record<string, string>;
  metaDataPatch?: MetadataPatch;
}

const IMAGE_PATH = /^\/spec\/containers\/(\d+)\/image$/;

function mapPatch(from: Record<string, string> | undefined, to: Record<string, string> | undefined): Record<string, string | null> | undefined {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(to ?? {})) if (from?.[k] !== v) out[k] = v;
  for (const k of Object.keys(from ?? {})) if (!(k in (to ?? {}))) out[k] = null;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The UpdateSpec moving a pod from `oldTemplate` to `newTemplate` in place, or undefined when that is impossible:
 * the RFC 6902 diff (arrays by index) may only touch /metadata and replace /spec/containers/<i>/image.
 */
export function inPlaceUpdateSpec(oldTemplate: Json, newTemplate: Json, revision: string): UpdateSpec | undefined {
  const containerImages: Record<string, string> = {};
  for (const op of fjp.compare(oldTemplate, newTemplate)) {
    if (op.path.startsWith('/metadata/') || op.path === '/metadata') continue;
    const m = IMAGE_PATH.exec(op.path);
    if (op.op !== 'replace' || !m) return undefined;
    const name = (oldTemplate.spec?.containers?.[Number(m[1])] as Json | undefined)?.name as string | undefined;
    if (!name || typeof op.value !== 'string') return undefined;
    containerImages[name] = op.value;
  }
  const labels = mapPatch(oldTemplate.metadata?.labels, newTemplate.metadata?.labels);
  const annotations = mapPatch(oldTemplate.metadata?.annotations, newTemplate.metadata?.annotations);
  return { revision, containerImages, ...(labels || annotations ? { metaDataPatch: { ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) } } : {}) };
}

/** The grace annotation's metaDataPatch: base64 of the patch's JSON bytes, `{"metadata":{…}}`. */
export const encodeMetadataPatch = (p: MetadataPatch): string => Buffer.from(goJsonValue({ metadata: p }), 'utf8').toString('base64');

function decodeMetadataPatch(s: string | undefined): MetadataPatch | undefined {
  if (!s) return undefined;
  try {
    return (JSON.parse(Buffer.from(s, 'base64').toString('utf8')) as { metadata?: MetadataPatch }).metadata;
  } catch {
    return undefined;
  }
}

function applyMetadataPatch(pod: Pod, p: MetadataPatch | undefined): void {
  if (!p) return;
  const md = (pod.metadata ??= {});
  for (const field of ['labels', 'annotations'] as const) {
    for (const [k, v] of Object.entries(p[field] ?? {})) {
      const m = (md[field] ??= {});
      if (v === null) delete m[k];
      else m[k] = v;
    }
  }
}

export function setLifecycleState(pod: Pod, state: string, nowMs: number): void {
  const md = (pod.metadata ??= {});
  (md.labels ??= {})[LifecycleStateLabel] = state;
  (md.annotations ??= {})[LifecycleTimestampAnnotation] = rfc3339(nowMs);
}

/** The images and metadata of `spec` written into `pod`, with the containers' current imageIDs recorded. */
function patchSpec(pod: Pod, spec: { containerImages?: Record<string, string>; metaDataPatch?: MetadataPatch; revision: string }, updateTimestamp: string, nowMs: number): void {
  applyMetadataPatch(pod, spec.metaDataPatch);
  const last: Record<string, { imageID?: string }> = {};
  const names: string[] = [];
  for (const c of pod.spec?.containers ?? []) {
    const image = spec.containerImages?.[c.name];
    if (image === undefined) continue;
    c.image = image;
    names.push(c.name);
    const st = pod.status?.containerStatuses?.find((s) => s.name === c.name);
    last[c.name] = { imageID: st?.imageID ?? '' };
  }
  const prev = readInPlaceState(pod);
  setState(pod, {
    revision: spec.revision, updateTimestamp, lastContainerStatuses: sortedMap(last),
    updateImages: names.length > 0 || prev?.updateImages,
    containerBatchesRecord: [...(prev?.containerBatchesRecord ?? []), { timestamp: rfc3339(nowMs), containers: names.sort() }],
  });
}

/**
 * Step 2 of the in-place update: revision labels, lifecycle `Updating`, the state annotation; then the images now,
 * or with gracePeriodSeconds > 0 the grace annotation (images wait for Refresh). Returns the new pod.
 */
export function startInPlaceUpdate(input: Pod, spec: UpdateSpec, nowMs: number, graceSeconds: number): Pod {
  const pod = structuredClone(input);
  const labels = ((pod.metadata ??= {}).labels ??= {});
  labels[PodRevisionLabel] = spec.revision;
  labels[PodTemplateHashLabel] = hashOf(spec.revision);
  setLifecycleState(pod, 'Updating', nowMs);
  const updateTimestamp = rfc3339(nowMs);
  setState(pod, { revision: spec.revision, updateTimestamp, lastContainerStatuses: null, updateImages: Object.keys(spec.containerImages).length > 0 });
  if (graceSeconds <= 0) {
    patchSpec(pod, spec, updateTimestamp, nowMs);
    return pod;
  }
  const grace: InPlaceUpdateGrace = {
    revision: spec.revision, containerImages: spec.containerImages, graceSeconds,
    ...(spec.metaDataPatch ? { metaDataPatch: encodeMetadataPatch(spec.metaDataPatch) } : {}),
  };
  setGrace(pod, grace);
  return pod;
}

/** What Refresh decided for one pod. */
export type RefreshResult =
  | { kind: 'write'; pod: Pod }
  | { kind: 'wait'; requeueAfterMs?: number }
  /** The update (if any) is complete: the InPlaceUpdateReady condition may turn True. */
  | { kind: 'complete' };

/** The spec image as the runtime reports it: `:latest` added when the reference has no ':'. */
const withTag = (image: string): string => (image.includes(':') ? image : `${image}:latest`);

/** §3.8 Complete, from the recorded imageIDs (runtime-containers-meta and env-from-metadata are not used). */
export function isInPlaceComplete(pod: Pod): boolean {
  const state = readInPlaceState(pod);
  if (!state) return true;
  for (const [name, last] of Object.entries(state.lastContainerStatuses ?? {})) {
    const st = pod.status?.containerStatuses?.find((s) => s.name === name);
    if (!st) return false;
    if (st.imageID === last.imageID) {
      const specImage = pod.spec?.containers.find((c) => c.name === name)?.image ?? '';
      if (st.image !== withTag(specImage) && st.image !== specImage) return false;
    }
  }
  return true;
}

export function refreshInPlace(input: Pod, nowMs: number): RefreshResult {
  const grace = readInPlaceGrace(input);
  if (grace) {
    const pod = structuredClone(input);
    if (!matchesRevision(pod, grace.revision)) {
      setGrace(pod, undefined);
      return { kind: 'write', pod };
    }
    const state = readInPlaceState(pod);
    const started = state ? Date.parse(state.updateTimestamp) : 0;
    const remaining = started + (grace.graceSeconds ?? 0) * 1000 - nowMs;
    if (remaining > 0) return { kind: 'wait', requeueAfterMs: Math.ceil(remaining / 1000) * 1000 };
    patchSpec(pod, { revision: grace.revision, containerImages: grace.containerImages, metaDataPatch: decodeMetadataPatch(grace.metaDataPatch) }, state?.updateTimestamp ?? rfc3339(nowMs), nowMs);
    setGrace(pod, undefined);
    return { kind: 'write', pod };
  }
  return isInPlaceComplete(input) ? { kind: 'complete' } : { kind: 'wait' };
}
