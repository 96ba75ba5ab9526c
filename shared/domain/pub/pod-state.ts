// The pod predicates PodUnavailableBudget counts with (spec/availability-guards.md §4): ready, consistent (the
// containers run what the spec asks) and available. A pod that is not both ready and consistent already counts as
// unavailable, so the budget check lets any operation on it through without spending.
import { InPlaceUpdateGraceAnnotation, InPlaceUpdateGraceAnnotationOld } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { PubUnavailablePodLabelPrefix } from '../../api/pod-unavailable-budget.js';
import { isInPlaceComplete } from '../cloneset/inplace.js';
import { readInPlaceState } from '../cloneset/inplace-annotations.js';
import { parseImageReference } from '../image-ref.js';

const SIDECARSET_INJECTED_LIST = 'kruise.io/sidecarset-injected-list';
const SIDECARSET_INPLACE_STATE = 'kruise.io/sidecarset-inplace-update-state';

/** Kubernetes IsPodActive: not Succeeded/Failed and not being deleted. */
export const isActivePod = (pod: Pod): boolean =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;

export const hasUnavailableLabel = (pod: Pod): boolean =>
  Object.keys(pod.metadata?.labels ?? {}).some((k) => k.startsWith(PubUnavailablePodLabelPrefix));

/** Running, Ready True, not deleting, no `unavailable-pod.kruise.io/` label. */
export function isPubReady(pod: Pod): boolean {
  if (pod.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) return false;
  if (!(pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')) return false;
  return !hasUnavailableLabel(pod);
}

/** Status imageID without `scheme://` (docker-pullable://, containerd://). */
const stripScheme = (id: string): string => { const i = id.indexOf('://'); return i < 0 ? id : id.slice(i + 3); };

function digestMatches(image: string, imageID: string | undefined): boolean {
  const spec = parseImageReference(image);
  const status = parseImageReference(stripScheme(imageID ?? ''));
  return spec.ok && status.ok && spec.ref.name === status.ref.name && spec.ref.digest === status.ref.digest;
}

const isDigest = (image: string): boolean => { const r = parseImageReference(image); return r.ok && !!r.ref.digest; };

/** The SidecarSet rule: a sidecar whose imageID is still the one recorded before its in-place update, on another image. */
function sidecarsConsistent(pod: Pod): boolean {
  if (!pod.metadata?.annotations?.[SIDECARSET_INJECTED_LIST]) return true;
  const sidecars = new Set(pod.spec?.containers.filter((c) => (c.env ?? []).some((e) => e.name === 'IS_INJECTED' && e.value === 'true')).map((c) => c.name));
  if (sidecars.size === 0) return true;
  const raw = pod.metadata.annotations[SIDECARSET_INPLACE_STATE];
  if (raw === undefined) return true;
  let states: Record<string, { lastContainerStatuses?: Record<string, { imageID?: string }> | null } | null>;
  try { states = JSON.parse(raw) as typeof states; } catch { return false; }
  if (!states || typeof states !== 'object') return false;
  const last = new Map<string, string>();
  for (const s of Object.values(states)) for (const [c, v] of Object.entries(s?.lastContainerStatuses ?? {})) last.set(c, v?.imageID ?? '');
  const specImage = new Map(pod.spec?.containers.map((c) => [c.name, c.image ?? '']));
  return !(pod.status?.containerStatuses ?? []).some((cs) =>
    sidecars.has(cs.name) && last.has(cs.name) && last.get(cs.name) === (cs.imageID ?? '') && specImage.get(cs.name) !== cs.image);
}

/** CloneSet's in-place completion: no grace annotation, no pending next batch, imageIDs moved on. */
function cloneSetUpdateConsistent(pod: Pod): boolean {
  const a = pod.metadata?.annotations ?? {};
  if (a[InPlaceUpdateGraceAnnotation] !== undefined || a[InPlaceUpdateGraceAnnotationOld] !== undefined) return false;
  const state = readInPlaceState(pod);
  if (state && (state.nextContainerImages || state.nextContainerRefMetadata || state.nextContainerResources)) return false;
  return isInPlaceComplete(pod);
}

/** The containers run what the spec asks (digests, then the SidecarSet and CloneSet in-place records). */
export function isPubConsistent(pod: Pod): boolean {
  const containers = pod.spec?.containers ?? [];
  const statuses = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
  let allDigests = containers.length > 0;
  for (const c of containers) {
    if (!isDigest(c.image ?? '')) { allDigests = false; continue; }
    if (!digestMatches(c.image ?? '', statuses.get(c.name)?.imageID)) return false;
  }
  if (allDigests) return true;
  return sidecarsConsistent(pod) && cloneSetUpdateConsistent(pod);
}

export const isPubAvailable = (pod: Pod): boolean => isActivePod(pod) && isPubReady(pod) && isPubConsistent(pod);
