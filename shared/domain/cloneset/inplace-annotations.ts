// The in-place update annotations (spec/cloneset.md §2.6) in Go's field order and escaping, and their reading
// (the legacy un-prefixed keys are read too, and deleted whenever the annotation is written).
import {
  InPlaceUpdateGraceAnnotation, InPlaceUpdateGraceAnnotationOld, InPlaceUpdateStateAnnotation, InPlaceUpdateStateAnnotationOld,
  type InPlaceUpdateGrace, type InPlaceUpdateState,
} from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { goString } from '../go-json.js';

/** JSON.stringify with Go's HTML escaping of strings (field order = insertion order, as the Go struct declares). */
export function goStructJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => v).replace(/"(?:[^"\\]|\\.)*"/g, (s) => goString(JSON.parse(s) as string));
}

/** RFC 3339 in UTC with whole seconds, as metav1.Time marshals. */
export const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function readJson<T>(pod: Pod, key: string, legacy: string): T | undefined {
  const a = pod.metadata?.annotations ?? {};
  const raw = a[key] ?? a[legacy];
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

export const readInPlaceState = (pod: Pod) => readJson<InPlaceUpdateState>(pod, InPlaceUpdateStateAnnotation, InPlaceUpdateStateAnnotationOld);
export const readInPlaceGrace = (pod: Pod) => readJson<InPlaceUpdateGrace>(pod, InPlaceUpdateGraceAnnotation, InPlaceUpdateGraceAnnotationOld);

export function encodeState(s: InPlaceUpdateState): string {
  return goStructJson({
    revision: s.revision, updateTimestamp: s.updateTimestamp, lastContainerStatuses: s.lastContainerStatuses ?? null,
    ...(s.updateEnvFromMetadata ? { updateEnvFromMetadata: true } : {}),
    ...(s.updateResources ? { updateResources: true } : {}),
    ...(s.updateImages ? { updateImages: true } : {}),
    ...(s.nextContainerImages && Object.keys(s.nextContainerImages).length ? { nextContainerImages: s.nextContainerImages } : {}),
    ...(s.preCheckBeforeNext ? { preCheckBeforeNext: s.preCheckBeforeNext } : {}),
    ...(s.containerBatchesRecord?.length ? { containerBatchesRecord: s.containerBatchesRecord } : {}),
  });
}

export function encodeGrace(g: InPlaceUpdateGrace): string {
  return goStructJson({
    revision: g.revision,
    ...(g.containerImages && Object.keys(g.containerImages).length ? { containerImages: sortedMap(g.containerImages) } : {}),
    ...(g.metaDataPatch ? { metaDataPatch: g.metaDataPatch } : {}),
    ...(g.updateEnvFromMetadata ? { updateEnvFromMetadata: true } : {}),
    ...(g.graceSeconds ? { graceSeconds: g.graceSeconds } : {}),
  });
}

/** Go marshals maps with sorted keys. */
export function sortedMap<T>(m: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]!]));
}

export function setAnnotation(pod: Pod, key: string, value: string | undefined, legacy?: string): void {
  const md = (pod.metadata ??= {});
  const a = (md.annotations ??= {});
  if (legacy) delete a[legacy];
  if (value === undefined) delete a[key];
  else a[key] = value;
}

export const setState = (pod: Pod, s: InPlaceUpdateState) => setAnnotation(pod, InPlaceUpdateStateAnnotation, encodeState(s), InPlaceUpdateStateAnnotationOld);
export const setGrace = (pod: Pod, g: InPlaceUpdateGrace | undefined) =>
  setAnnotation(pod, InPlaceUpdateGraceAnnotation, g ? encodeGrace(g) : undefined, InPlaceUpdateGraceAnnotationOld);
