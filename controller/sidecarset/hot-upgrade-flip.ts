// The second half of a hot upgrade (spec/daemon-and-controllers.md §6.7 step 4): once the upgraded slot runs and is
// ready, the old slot goes back to the empty image so the pod again has one working sidecar and one idle one.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { SidecarSetInPlaceUpdateStateAnnotation } from '../../shared/api/sidecarset.js';
import { isHotUpgrade, versionAltAnnotation, versionAnnotation } from '../../shared/domain/inject/hot-upgrade.js';
import { recordInPlaceUpdate } from './inplace-state.js';
import { hotUpgradeContainers, isPodStateConsistent, isRunningAndReady, setHash, sidecarContainerNames } from './pod-state.js';
import { statusImageIDs } from './pod-upgrade.js';

const hotContainers = (set: SidecarSet) => (set.spec?.containers ?? []).filter(isHotUpgrade);
const specImage = (pod: Pod, name: string) => pod.spec?.containers?.find((c) => c.name === name)?.image;

export const hasHotUpgradeContainers = (set: SidecarSet) => hotContainers(set).length > 0;

/** The non-working slot of every HotUpgrade sidecar of the SidecarSet. */
const idleSlots = (set: SidecarSet, pod: Pod) => new Set(hotContainers(set).map((c) => hotUpgradeContainers(c.name, pod).other));

/**
 * A pod is due for the flip when some HotUpgrade sidecar's non-working slot does not run the empty image, every
 * other sidecar container is consistent, and the pod is Running+Ready or every container but the idle slots is ready.
 */
export function needsFlip(set: SidecarSet, pod: Pod): boolean {
  const inUpgrade = hotContainers(set).some((c) => specImage(pod, hotUpgradeContainers(c.name, pod).other) !== c.upgradeStrategy?.hotUpgradeEmptyImage);
  if (!inUpgrade) return false;
  const idle = idleSlots(set, pod);
  const others = new Set([...sidecarContainerNames(set)].filter((n) => !idle.has(n)));
  if (!isPodStateConsistent(set, pod, others)) return false;
  if (isRunningAndReady(pod)) return true;
  return (pod.status?.containerStatuses ?? []).every((s) => idle.has(s.name) || s.ready);
}

/**
 * flipPodSidecarContainerDo on a pod the caller owns: each non-empty idle slot gets the empty image, its version
 * annotation and the working slot's version-alt annotation become "0", and the in-place-update state records the
 * flipped slots (the hash annotation is left alone). Returns the flipped container names.
 */
export function flipHotUpgrade(set: SidecarSet, pod: Pod, now: Date): string[] {
  const annotations = ((pod.metadata ??= {}).annotations ??= {});
  const imageIDs = statusImageIDs(pod);
  const flipped: string[] = [];
  const pairs = hotContainers(set).map((c) => ({ c, ...hotUpgradeContainers(c.name, pod) }));
  for (const { c, working, other } of pairs) {
    const slot = pod.spec?.containers?.find((x) => x.name === other);
    const empty = c.upgradeStrategy?.hotUpgradeEmptyImage;
    if (!slot || slot.image === empty) continue;
    slot.image = empty;
    flipped.push(other);
    annotations[versionAnnotation(other)] = '0';
    annotations[versionAltAnnotation(working)] = '0';
  }
  annotations[SidecarSetInPlaceUpdateStateAnnotation] = recordInPlaceUpdate(
    annotations[SidecarSetInPlaceUpdateStateAnnotation], set.metadata?.name ?? '', setHash(set), flipped, imageIDs, now);
  return flipped;
}
