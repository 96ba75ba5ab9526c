// Merging built sidecars into the pod spec (spec/webhooks.md §2.6). All functions return new arrays.
import type { Container, LocalObjectReference } from '../../api/meta.js';
import type { SidecarContainer } from '../../api/sidecarset.js';
import { byteOrder } from './annotations.js';

/** kruise's extension fields, dropped from what goes into the pod (the injected object is the corev1.Container part). */
const EXTENSION_FIELDS = ['podInjectPolicy', 'upgradeStrategy', 'shareVolumePolicy', 'shareVolumeDevicePolicy', 'transferEnv', 'resourcesPolicy'] as const;

export function toContainer(s: SidecarContainer): Container {
  const c: Record<string, unknown> = { ...s };
  for (const f of EXTENSION_FIELDS) delete c[f];
  // Go omits an empty image (e.g. a HotUpgrade twin without hotUpgradeEmptyImage); the apiserver then rejects the pod.
  if (c.image === '') delete c.image;
  return c as unknown as Container;
}

/**
 * A sidecar named like an existing pod container replaces it in place; otherwise BeforeAppContainer sidecars go in
 * front of the pod's containers and everything else (AfterAppContainer or unset) after them, each group in order.
 */
export function mergeContainers(pod: Container[], sidecars: SidecarContainer[]): Container[] {
  const index = new Map(pod.map((c, i) => [c.name, i]));
  const merged = [...pod];
  const before: Container[] = [];
  const after: Container[] = [];
  for (const s of sidecars) {
    const at = index.get(s.name);
    if (at !== undefined) merged[at] = toContainer(s);
    else (s.podInjectPolicy === 'BeforeAppContainer' ? before : after).push(toContainer(s));
  }
  return [...before, ...merged, ...after];
}

/** Stable sort by name (bytewise, as Go compares strings), used for init containers across SidecarSets. */
export function sortByName<T extends { name: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => byteOrder(a.name, b.name));
}

/** The pod's items, then `extra` items whose name is not present yet: the pod wins, then the first SidecarSet. */
export function mergeByName<T extends { name?: string }>(pod: T[], extra: T[]): T[] {
  const seen = new Set(pod.map((v) => v.name));
  const out = [...pod];
  for (const v of extra) {
    if (seen.has(v.name)) continue;
    seen.add(v.name);
    out.push(v);
  }
  return out;
}

/** Pod imagePullSecrets de-duplicated by name (first kept), then SidecarSet ones not yet present. */
export function mergeSecrets(pod: LocalObjectReference[], extra: LocalObjectReference[]): LocalObjectReference[] {
  return mergeByName(mergeByName([], pod), extra);
}
