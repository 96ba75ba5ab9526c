// What the SidecarSet controller reads from a pod (spec/daemon-and-controllers.md §6.3–6.6): whether it is active,
// injected, updated, consistent (kubelet has applied the images the spec asks for) and ready. Pure predicates.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../../shared/api/sidecarset.js';
import { parseImageReference } from '../../shared/domain/image-ref.js';
import { hotUpgradeSlots, isHotUpgrade } from '../../shared/domain/inject/hot-upgrade.js';
import { inPlaceNatives, isNativeRunning, nativesUp, podContainers, podNatives, podStatuses } from './native-sidecars.js';
import { podView } from './pod-view.js';
import { isResizeApplied } from './resize-state.js';

const setName = (s: SidecarSet) => s.metadata?.name ?? '';

/** kube controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export const isActivePod = (pod: Pod) =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;

/** podutil.IsPodReady: the Ready condition is True. */
export const isPodReadyCondition = (pod: Pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** kruise util.IsRunningAndReady: phase Running, Ready, not being deleted. */
export const isRunningAndReady = (pod: Pod) => pod.status?.phase === 'Running' && isPodReadyCondition(pod) && !pod.metadata?.deletionTimestamp;

export const isPodInjected = (set: SidecarSet, pod: Pod) => podView(pod).injected.has(setName(set));

/** The pod carries every container of the SidecarSet (both slots plus a working entry for HotUpgrade ones). */
export function hasSidecarContainers(set: SidecarSet, pod: Pod): boolean {
  const v = podView(pod);
  return (set.spec?.containers ?? []).every((c) => {
    if (!isHotUpgrade(c)) return v.specImages.has(c.name);
    const [a, b] = hotUpgradeSlots(c.name);
    return Object.hasOwn(v.working, c.name) && v.specImages.has(a) && v.specImages.has(b);
  });
}

const containerNames = new WeakMap<SidecarSet, ReadonlySet<string>>();

/**
 * Pod container names the SidecarSet owns: its containers, HotUpgrade ones as their two slots, and (kruise-ts) its
 * native sidecars updated in place (native-sidecars.ts).
 */
export function sidecarContainerNames(set: SidecarSet): ReadonlySet<string> {
  // Asked once per pod per reconcile; a cached SidecarSet is replaced, never modified, on update.
  let names = containerNames.get(set);
  if (names) return names;
  const out = new Set<string>();
  for (const c of set.spec?.containers ?? []) {
    if (isHotUpgrade(c)) hotUpgradeSlots(c.name).forEach((n) => out.add(n));
    else out.add(c.name);
  }
  for (const c of inPlaceNatives(set)) out.add(c.name);
  containerNames.set(set, (names = out));
  return names;
}

/** The working and the other (idle, or old during an upgrade) slot of HotUpgrade sidecar `name`. */
export function hotUpgradeContainers(name: string, pod: Pod): { working: string; other: string } {
  const [a, b] = hotUpgradeSlots(name);
  return podView(pod).working[name] === a ? { working: a, other: b } : { working: b, other: a };
}

export const podSetHash = (pod: Pod, set: SidecarSet) => podView(pod).hash.get(setName(set))?.hash ?? '';
export const podSetHashWithoutImage = (pod: Pod, set: SidecarSet) => podView(pod).hashWithoutImage.get(setName(set))?.hash ?? '';
export const setHash = (set: SidecarSet) => set.metadata?.annotations?.[SidecarSetHashAnnotation] ?? '';
export const setHashWithoutImage = (set: SidecarSet) => set.metadata?.annotations?.[SidecarSetHashWithoutImageAnnotation] ?? '';

/** The pod's hash entry for the SidecarSet equals the SidecarSet's current hash. */
export const isPodSidecarUpdated = (set: SidecarSet, pod: Pod) => setHash(set) === podSetHash(pod, set);

interface ParsedImage { name: string; tag: string; digest: string }
/** Parsed references by text: a few images appear in thousands of pods, and parsing is the costly part of a check. */
const parsedImages = new Map<string, ParsedImage | undefined>();
function parseImage(image: string): ParsedImage | undefined {
  if (parsedImages.has(image)) return parsedImages.get(image);
  const r = parseImageReference(image);
  const parsed = r.ok ? r.ref : undefined;
  if (parsedImages.size >= 1024) parsedImages.clear();
  parsedImages.set(image, parsed);
  return parsed;
}

/** Repo and digest equal when both are digests, else repo and tag (names compared normalised; docs/compatibility.md). */
export function isContainerImageEqual(a: string, b: string): boolean {
  const x = parseImage(a);
  const y = parseImage(b);
  if (!x || !y) return false;
  if (x.digest && y.digest) return x.name === y.name && x.digest === y.digest;
  return x.name === y.name && x.tag === y.tag;
}

/** Status imageID without its `scheme://` prefix (docker-pullable://, containerd://…). */
function stripScheme(imageID: string): string {
  const i = imageID.indexOf('://');
  if (i < 0) return imageID;
  const rest = imageID.slice(i + 3);
  const j = rest.indexOf('://');
  return j < 0 ? rest : rest.slice(0, j);
}

/**
 * IsSidecarContainerUpdateCompleted: no container of `containers` still shows the image ID recorded before its
 * in-place update while its status image differs from the spec. No annotation = never updated = complete; an
 * unparseable one = incomplete.
 */
export function isSidecarUpdateCompleted(pod: Pod, setNames: readonly string[], containers: ReadonlySet<string>): boolean {
  const v = podView(pod);
  if (v.inPlace === undefined) return true;
  if (v.inPlace === 'invalid') return false;
  const last = new Map<string, string | undefined>();
  for (const n of [...setNames].sort()) {
    for (const [c, s] of Object.entries(v.inPlace.get(n)?.lastContainerStatuses ?? {})) last.set(c, s.imageID);
  }
  for (const cs of podStatuses(pod)) {
    if (!containers.has(cs.name) || !last.has(cs.name)) continue;
    if ((last.get(cs.name) ?? '') === (cs.imageID ?? '') && v.specImages.get(cs.name) !== cs.image) return false;
  }
  return true;
}

/**
 * IsPodStateConsistent: kubelet reports every container and runs what the spec asks for the SidecarSet's containers
 * (`names`, all of them when empty). With digest images only, each status imageID must match its digest; otherwise
 * the in-place-update record decides. Upstream stops checking digests at the first non-digest container.
 */
export function isPodStateConsistent(set: SidecarSet, pod: Pod, names?: ReadonlySet<string>): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  if ((pod.spec?.containers ?? []).length !== statuses.length) return false;
  const wanted = names && names.size > 0 ? names : sidecarContainerNames(set);
  // kruise-ts: a sidecar whose resize kubelet has not applied yet is mid-update, as one not yet on its new image.
  if (!isResizeApplied(pod, wanted)) return false;
  const all = podStatuses(pod);
  const imageIDs = new Map(all.map((s) => [s.name, stripScheme(s.imageID ?? '')]));
  // kruise-ts: a native sidecar kubelet does not report yet has not started its (new) container.
  for (const c of podNatives(set, pod)) if (wanted.has(c.name) && !imageIDs.has(c.name)) return false;
  let allDigest = true;
  for (const c of podContainers(pod)) {
    if (!wanted.has(c.name)) continue;
    if (!parseImage(c.image ?? '')?.digest) { allDigest = false; break; }
    const id = imageIDs.get(c.name);
    if (id === undefined || !isContainerImageEqual(c.image ?? '', id)) return false;
  }
  if (allDigest) return true;
  return isSidecarUpdateCompleted(pod, [setName(set)], wanted);
}

/**
 * commonControl.IsPodReady: idle HotUpgrade slots run the empty image, and the pod is Running and Ready; kruise-ts:
 * and its in-place native sidecars are up (a restarting native sidecar leaves the pod Ready).
 */
export function isPodReadyForSet(set: SidecarSet, pod: Pod): boolean {
  const v = podView(pod);
  for (const c of set.spec?.containers ?? []) {
    const empty = c.upgradeStrategy?.hotUpgradeEmptyImage;
    if (!isHotUpgrade(c) || !empty) continue;
    const { other } = hotUpgradeContainers(c.name, pod);
    if (v.specImages.has(other) && v.specImages.get(other) !== empty) return false;
  }
  return isRunningAndReady(pod) && nativesUp(set, pod);
}

/**
 * `status.updatedPods`: the pod's hash entry is the SidecarSet's and kubelet applied any sidecar resize (kruise-ts);
 * native sidecars (kruise-ts) once kubelet reports their new image running.
 */
export function isPodUpdatedForStatus(set: SidecarSet, pod: Pod): boolean {
  if (!isPodSidecarUpdated(set, pod) || !isResizeApplied(pod, sidecarContainerNames(set))) return false;
  const natives = podNatives(set, pod);
  if (natives.length === 0) return true;
  return natives.every((c) => isNativeRunning(pod, c.name)) && isPodStateConsistent(set, pod, new Set(natives.map((c) => c.name)));
}

/**
 * IsSidecarSetUpgradable: upstream changes only images in place, so a pod injected from a SidecarSet whose other
 * fields have changed since (different hash-without-image) cannot be upgraded; kruise-ts also resizes in place when
 * `inPlace` says the rest is resources only (pod-change.ts). A sidecar that is ready but not yet consistent is
 * mid-update and the pod waits for a later round.
 */
export function upgradability(set: SidecarSet, pod: Pod, inPlace?: boolean): { canUpgrade: boolean; consistent: boolean } {
  if (!(inPlace ?? podSetHashWithoutImage(pod, set) === setHashWithoutImage(set))) return { canUpgrade: false, consistent: false };
  const ready = new Map(podStatuses(pod).map((s) => [s.name, s.ready]));
  for (const name of [...sidecarContainerNames(set)].sort()) {
    if (ready.get(name) && !isPodStateConsistent(set, pod, new Set([name]))) return { canUpgrade: true, consistent: false };
  }
  return { canUpgrade: true, consistent: true };
}
