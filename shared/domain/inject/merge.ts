// Merging built sidecars into the pod spec (spec/webhooks.md §2.6). All functions return new arrays.
import type { Container, LocalObjectReference } from '../../api/meta.js';
import type { SidecarContainer } from '../../api/sidecarset.js';
import { deepFreeze, isFrozenJson } from '../frozen-json.js';
import { byteOrder } from './annotations.js';

/** kruise's extension fields, dropped from what goes into the pod (the injected object is the corev1.Container part). */
const EXTENSION_FIELDS = new Set(['podInjectPolicy', 'upgradeStrategy', 'shareVolumePolicy', 'shareVolumeDevicePolicy', 'transferEnv', 'resourcesPolicy']);

// A deep-frozen sidecar (injected-forms.ts) cannot change, so neither can its pod form: made once, frozen, shared.
const podForms = new WeakMap<SidecarContainer, Container>();

export function toContainer(s: SidecarContainer): Container {
  const known = podForms.get(s);
  if (known) return known;
  const c = podForm(s);
  if (isFrozenJson(s)) podForms.set(s, deepFreeze(c));
  return c;
}

function podForm(s: SidecarContainer): Container {
  // Copied field by field rather than spread-then-delete: `delete` turns the object into a dictionary, which every
  // later property read and the patch's JSON.stringify then pay for.
  const c: Record<string, unknown> = {};
  for (const k of Object.keys(s)) {
    // Go omits an empty image (e.g. a HotUpgrade twin without hotUpgradeEmptyImage); the apiserver then rejects the pod.
    if (EXTENSION_FIELDS.has(k) || (k === 'image' && s.image === '')) continue;
    const v = (s as unknown as Record<string, unknown>)[k];
    // A parsed "__proto__" key is data; plain assignment would set the prototype instead.
    if (k === '__proto__') Object.defineProperty(c, k, { value: v, enumerable: true, writable: true, configurable: true });
    else c[k] = v;
  }
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
