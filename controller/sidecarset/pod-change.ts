// How a matched pod that is behind its SidecarSet can catch up (docs/compatibility.md, in-place sidecar resources):
// upstream's in-place image update, a resize through pods/resize (plus the image update when the image moved too), or
// not at all (new pods only, as upstream does for every change beyond the image). A pure decision over the pod's
// view and what the reconcile gathered; the first rule that gives a reason to stay out of place wins.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { podView } from './pod-view.js';
import { podSetHashWithoutImage, setHashWithoutImage } from './pod-state.js';
import type { SidecarDiff } from './sidecar-diff.js';

/** SidecarSet annotation: `"false"` turns in-place resizes off for it (resources changes then reach new pods only). */
export const InPlaceResizeAnnotation = 'kruise-ts.io/sidecarset-inplace-resize';

export type PodChange =
  | { kind: 'image' }
  | { kind: 'resize'; containers: string[] }
  | { kind: 'new-pods-only'; reason: string; fields: string[] };

export interface ChangeInputs {
  /** The diff between the SidecarSet and the revision the pod's hash entry names; undefined when not stored. */
  diff: (entry: { hash: string; controllerRevision?: string }) => SidecarDiff | undefined;
  /** Why resizing is off for the whole SidecarSet at its current hash (no pods/resize in the cluster), if it is. */
  unsupported?: string;
  /** Why the API refused this pod's resize at the SidecarSet's current hash, if it did. */
  refused: (pod: Pod) => string | undefined;
}

export const resizeEnabled = (set: SidecarSet) => set.metadata?.annotations?.[InPlaceResizeAnnotation] !== 'false';

type Rule = (set: SidecarSet, pod: Pod, inputs: ChangeInputs, diff: SidecarDiff | undefined) => PodChange | undefined;

const rules: Rule[] = [
  (set) => resizeEnabled(set) ? undefined : { kind: 'new-pods-only', reason: `in-place resize is off (${InPlaceResizeAnnotation}: "false")`, fields: [] },
  (_s, _p, _i, diff) => diff ? undefined : { kind: 'new-pods-only', reason: 'the revision the pod was injected from is no longer stored', fields: [] },
  (_s, _p, _i, diff) => diff!.fields.length === 0 ? undefined
    : { kind: 'new-pods-only', reason: `${diff!.fields.join(', ')} changed, which only new pods get`, fields: diff!.fields },
  (_s, _p, inputs) => inputs.unsupported ? { kind: 'new-pods-only', reason: inputs.unsupported, fields: [] } : undefined,
  (_s, pod, inputs) => {
    const refused = inputs.refused(pod);
    return refused ? { kind: 'new-pods-only', reason: refused, fields: [] } : undefined;
  },
];

/**
 * A plain init container whose image the SidecarSet changed (hashed with the native sidecars, kruise-ts): it ran once
 * when the pod started, so the change is for new pods only, never written into a running pod.
 */
function plainInitImageChanged(set: SidecarSet, pod: Pod): boolean {
  const inits = set.spec?.initContainers ?? [];
  if (!inits.some((c) => c.restartPolicy === 'Always')) return false;
  return inits.some((c) => c.restartPolicy !== 'Always' &&
    (pod.spec?.initContainers?.find((x) => x.name === c.name)?.image ?? c.image ?? '') !== (c.image ?? ''));
}

/** What brings `pod` (not yet at the SidecarSet's hash) up to date. */
export function podChange(set: SidecarSet, pod: Pod, inputs: ChangeInputs): PodChange {
  if (plainInitImageChanged(set, pod)) return { kind: 'new-pods-only', reason: 'initContainers changed, which only new pods get', fields: ['initContainers'] };
  if (podSetHashWithoutImage(pod, set) === setHashWithoutImage(set)) return { kind: 'image' };
  const entry = podView(pod).hash.get(set.metadata?.name ?? '');
  const diff = entry ? inputs.diff(entry) : undefined;
  for (const rule of rules) {
    const out = rule(set, pod, inputs, diff);
    if (out) return out;
  }
  return { kind: 'resize', containers: diff!.resized };
}

/** Upstream's rule alone: in place only when the hash-without-image is equal. */
export const upstreamChange = (set: SidecarSet, pod: Pod): PodChange =>
  podSetHashWithoutImage(pod, set) === setHashWithoutImage(set)
    ? { kind: 'image' }
    : { kind: 'new-pods-only', reason: 'fields other than images changed', fields: [] };
