// The in-place upgrade of one pod (spec/daemon-and-controllers.md §6.6, §6.7 step 2): only container images change,
// plus the bookkeeping annotations. Works on a pod object the caller owns (a fresh GET) and modifies it.
import type { Container, Pod } from '../../shared/api/meta.js';
import type { SidecarContainer, SidecarSet } from '../../shared/api/sidecarset.js';
import {
  SidecarSetHashAnnotation,
  SidecarSetHashWithoutImageAnnotation,
  SidecarSetInPlaceUpdateStateAnnotation,
  SidecarSetListAnnotation,
  SidecarSetWorkingHotUpgradeContainer,
} from '../../shared/api/sidecarset.js';
import { byteOrder, formatStringMap, formatTimestamp, formatUpgradeSpecMap, parseStringMap, parseUpgradeSpecMap, type UpgradeSpec, type UpgradeSpecMap } from '../../shared/domain/inject/annotations.js';
import { hotUpgradeSlots, isHotUpgrade, versionAltAnnotation, versionAnnotation } from '../../shared/domain/inject/hot-upgrade.js';
import { applyPatchPodMetadata } from '../../shared/domain/inject/pod-metadata.js';
import { recordInPlaceUpdate } from './inplace-state.js';
import { inPlaceNatives, podStatuses } from './native-sidecars.js';
import { hotUpgradeContainers, isPodStateConsistent, setHash, setHashWithoutImage } from './pod-state.js';

const container = (pod: Pod, name: string): Container | undefined => pod.spec?.containers?.find((c) => c.name === name);

/**
 * findContainerToHotUpgrade: the slot to receive the new image and the other one. The slot running the empty image
 * first (`-1` checked first); else the one of the two that is not (ready and consistent), if exactly one is not; else
 * the slot that is not working.
 */
export function hotUpgradeTarget(set: SidecarSet, c: SidecarContainer, pod: Pod): { target: string; other: string } {
  const [n1, n2] = hotUpgradeSlots(c.name);
  const empty = c.upgradeStrategy?.hotUpgradeEmptyImage ?? '';
  if ((container(pod, n1)?.image ?? '') === empty) return { target: n1, other: n2 };
  if ((container(pod, n2)?.image ?? '') === empty) return { target: n2, other: n1 };
  const ready = (n: string) =>
    (pod.status?.containerStatuses?.find((s) => s.name === n)?.ready ?? false) && isPodStateConsistent(set, pod, new Set([n]));
  const r1 = ready(n1);
  const r2 = ready(n2);
  if (r1 && !r2) return { target: n2, other: n1 };
  if (!r1 && r2) return { target: n1, other: n2 };
  const { working, other } = hotUpgradeContainers(c.name, pod);
  return { target: other, other: working };
}

/** Names of the SidecarSet's sidecars as pods list them: native-sidecar init containers and containers, sorted. */
export function sidecarList(set: SidecarSet): string[] {
  const names = new Set<string>();
  for (const c of set.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') names.add(c.name);
  for (const c of set.spec?.containers ?? []) names.add(c.name);
  return [...names].sort(byteOrder);
}

/** Legacy `map[string]string` hash annotations, or undefined when the value is not that form. */
function legacyHashes(raw: string | undefined): Record<string, string> | undefined {
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    const values = Object.values(v);
    if (!values.some((x) => typeof x === 'string') || !values.every((x) => typeof x === 'string' || x === null)) return undefined;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, (x as string | null) ?? '']));
  } catch {
    return undefined;
  }
}

/**
 * UpdatePodSidecarSetHash: the SidecarSet's entry of `kruise.io/sidecarset-hash` becomes its current hash, sidecar
 * list and latest revision. Legacy string maps are converted first, hash-without-image too, every converted entry
 * stamped `now` and named after this SidecarSet (upstream's quirk).
 */
function updateHashAnnotations(annotations: Record<string, string>, set: SidecarSet, ts: string): void {
  const name = set.metadata?.name ?? '';
  const convert = (m: Record<string, string>): UpgradeSpecMap =>
    new Map(Object.entries(m).map(([k, hash]) => [k, { updateTimestamp: ts, hash, sidecarSetName: name, sidecarList: null } satisfies UpgradeSpec]));
  let hashes: UpgradeSpecMap;
  const legacy = legacyHashes(annotations[SidecarSetHashAnnotation]);
  if (legacy) {
    hashes = convert(legacy);
    const legacyWithoutImage = legacyHashes(annotations[SidecarSetHashWithoutImageAnnotation]);
    if (legacyWithoutImage) annotations[SidecarSetHashWithoutImageAnnotation] = formatUpgradeSpecMap(convert(legacyWithoutImage));
  } else {
    try {
      hashes = parseUpgradeSpecMap(annotations[SidecarSetHashAnnotation], SidecarSetHashAnnotation, '');
    } catch {
      hashes = new Map();
    }
  }
  const entry: UpgradeSpec = { updateTimestamp: ts, hash: setHash(set), sidecarSetName: name, sidecarList: sidecarList(set) };
  if (set.status?.latestRevision) entry.controllerRevision = set.status.latestRevision;
  hashes.set(name, entry);
  annotations[SidecarSetHashAnnotation] = formatUpgradeSpecMap(hashes);
}

/**
 * After a resize the pod's sidecars equal the SidecarSet's but for images, so its `kruise.io/sidecarset-hash-without-
 * image` entry takes the SidecarSet's value, as injection would have written it: later image-only changes then take
 * upstream's path (here and in OpenKruise).
 */
function updateHashWithoutImage(annotations: Record<string, string>, set: SidecarSet, ts: string): void {
  const name = set.metadata?.name ?? '';
  let entries: UpgradeSpecMap;
  try {
    entries = parseUpgradeSpecMap(annotations[SidecarSetHashWithoutImageAnnotation], SidecarSetHashWithoutImageAnnotation, '');
  } catch {
    entries = new Map();
  }
  entries.set(name, { updateTimestamp: ts, hash: setHashWithoutImage(set), sidecarSetName: name, sidecarList: sidecarList(set) });
  annotations[SidecarSetHashWithoutImageAnnotation] = formatUpgradeSpecMap(entries);
}

/** The pod's status imageID of each container, before anything changes. */
export const statusImageIDs = (pod: Pod): Map<string, string> =>
  new Map(podStatuses(pod).map((s) => [s.name, s.imageID ?? '']));

/** The sidecars (or hot-upgrade slots) whose image the update changes. */
function imageSteps(set: SidecarSet, pod: Pod) {
  return (set.spec?.containers ?? []).flatMap((c) => {
    const hot = isHotUpgrade(c);
    const { target, other } = hot ? hotUpgradeTarget(set, c, pod) : { target: c.name, other: c.name };
    return (c.image ?? '') === (container(pod, other)?.image ?? '') ? [] : [{ c, hot, target, other }];
  });
}

/** The in-place native sidecars whose image the update changes (kruise-ts). */
const nativeImageSteps = (set: SidecarSet, pod: Pod) => inPlaceNatives(set).filter((c) => {
  const slot = pod.spec?.initContainers?.find((x) => x.name === c.name);
  return slot !== undefined && (slot.image ?? '') !== (c.image ?? '');
});

/** Whether upgradePod would change an image, i.e. restart a sidecar (a pod write with none restarts nothing). */
export const restartsSidecars = (set: SidecarSet, pod: Pod) => nativeImageSteps(set, pod).length > 0 || imageSteps(set, pod).length > 0;

export interface UpgradeInputs {
  now: Date;
  /** `kruise.io/sidecarset-injected-list` for a pod that lacks it: every SidecarSet matching the pod. */
  injectedList: (pod: Pod) => string;
  /** kruise-ts: the sidecars' resources were just resized to the SidecarSet's (pods/resize). */
  resized?: boolean;
}

/**
 * updatePodSidecarAndHash minus the API call: sets each sidecar's (or hot-upgrade slot's, or kruise-ts: in-place
 * native sidecar's) image to the SidecarSet's,
 * maintains the hot-upgrade annotations, the hash and in-place-update-state annotations, fills a missing injected
 * list and applies patchPodMetadata. Returns the containers whose image changed. Throws AdmissionDeniedError when a
 * MergePatchJson patch cannot apply.
 */
export function upgradePod(set: SidecarSet, pod: Pod, inputs: UpgradeInputs): string[] {
  const metadata = (pod.metadata ??= {});
  const annotations = (metadata.annotations ??= {});
  const imageIDs = statusImageIDs(pod);
  // Every decision is taken on the unmodified pod (the predicates memoise what they read from it), then applied.
  const steps = imageSteps(set, pod);
  const changed: string[] = [];
  // kruise-ts: native sidecars take their new image in spec.initContainers; kubelet restarts only them.
  for (const c of nativeImageSteps(set, pod)) {
    pod.spec!.initContainers!.find((x) => x.name === c.name)!.image = c.image;
    changed.push(c.name);
  }
  for (const { c, hot, target, other } of steps) {
    const slot = container(pod, target);
    if (!slot) continue;
    slot.image = c.image;
    changed.push(target);
    if (!hot) continue;
    const working = parseStringMap(annotations[SidecarSetWorkingHotUpgradeContainer]);
    working[c.name] = target;
    annotations[SidecarSetWorkingHotUpgradeContainer] = formatStringMap(working);
    const version = set.metadata?.resourceVersion ?? '';
    annotations[versionAnnotation(target)] = version;
    annotations[versionAltAnnotation(target)] = annotations[versionAnnotation(other)] ?? '';
    annotations[versionAltAnnotation(other)] = version;
  }
  const ts = formatTimestamp(inputs.now);
  updateHashAnnotations(annotations, set, ts);
  if (inputs.resized) updateHashWithoutImage(annotations, set, ts);
  annotations[SidecarSetInPlaceUpdateStateAnnotation] = recordInPlaceUpdate(
    annotations[SidecarSetInPlaceUpdateStateAnnotation], set.metadata?.name ?? '', setHash(set), changed, imageIDs, inputs.now);
  if (!annotations[SidecarSetListAnnotation]) annotations[SidecarSetListAnnotation] = inputs.injectedList(pod);
  metadata.annotations = applyPatchPodMetadata(annotations, [set], `${metadata.namespace}/${metadata.name}`);
  return changed;
}
