// Canary SidecarSets (upstream HEAD after v1.9.0, spec/webhooks.md §8): a SidecarSet annotated
// `apps.kruise.io/sidecarset-canary: "true"` with `apps.kruise.io/sidecarset-base: <name>` stands in for its base on
// the pods both select, so a new sidecar version can be tried on a subset of pods.
import type { SidecarSet } from '../api/sidecarset.js';
import { SidecarSetBaseAnnotation, SidecarSetCanaryAnnotation } from '../api/sidecarset.js';

/** The base a canary SidecarSet replaces, or undefined when the SidecarSet is not a canary (IsCanarySidecarSet). */
export function canaryBaseOf(set: SidecarSet): string | undefined {
  const annotations = set.metadata?.annotations;
  const base = annotations?.[SidecarSetBaseAnnotation];
  return annotations?.[SidecarSetCanaryAnnotation] === 'true' && base ? base : undefined;
}

/** The matched SidecarSets without those a matched canary replaces (order kept). */
export function withoutCanaryBases(sets: SidecarSet[]): SidecarSet[] {
  const bases = new Set<string>();
  for (const s of sets) {
    const base = canaryBaseOf(s);
    if (base !== undefined) bases.add(base);
  }
  return bases.size === 0 ? sets : sets.filter((s) => !bases.has(s.metadata?.name ?? ''));
}
