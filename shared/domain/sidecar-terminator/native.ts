// Beyond OpenKruise (issue 27 part 4): a Job pod whose sidecars are native — init containers with restartPolicy
// Always — needs no SidecarTerminator, since the kubelet stops native sidecars once the main containers have exited.
// Upstream never looks at init containers, so it already leaves them alone; kruise-ts says so in an event, once per
// pod, when the pod reaches the moment SidecarTerminator would have acted, so that a user moving a marked sidecar
// (KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT / _WITH_IMAGE) into a native one sees why no CRR comes. Only native
// sidecars carrying a marker are named: other native sidecars are no concern of Kruise's.
import type { Container, Pod } from '../../api/meta.js';
import { isSidecar, mainAndSidecars } from './containers.js';
import { goList } from './crr.js';
import { isJobLike, mainContainersFinished } from './qualify.js';

/** After this long since the main containers ended, the moment is past (a restarted controller does not re-announce old pods). */
export const NATIVE_NOTE_WINDOW_MS = 10 * 60_000;

const isNative = (c: Container): boolean => c.restartPolicy === 'Always';

/** The marked native sidecars of the pod, in spec order. */
export const markedNativeSidecars = (pod: Pod): string[] =>
  (pod.spec?.initContainers ?? []).filter((c) => isNative(c) && isSidecar(c)).map((c) => c.name);

/**
 * The marked native sidecars to name in the event, when the pod is Job-like, its main containers have finished (as
 * SidecarTerminator judges them) and the last of them ended within NATIVE_NOTE_WINDOW_MS of `nowMs`; else empty.
 */
export function nativeSidecarsToNote(pod: Pod, nowMs: number): string[] {
  if (!isJobLike(pod)) return [];
  const native = markedNativeSidecars(pod);
  if (native.length === 0) return [];
  const { main } = mainAndSidecars(pod);
  if (!mainContainersFinished(pod, main)) return [];
  let last = Number.NEGATIVE_INFINITY;
  for (const s of pod.status?.containerStatuses ?? []) {
    if (!main.has(s.name)) continue;
    const at = Date.parse(String(s.state?.terminated?.finishedAt ?? ''));
    // No time reported: the moment cannot be placed, so it counts as now.
    last = Math.max(last, Number.isNaN(at) ? nowMs : at);
  }
  return last >= nowMs - NATIVE_NOTE_WINDOW_MS ? native : [];
}

export const nativeMessage = (names: readonly string[]) =>
  `Kruise SidecarTerminator leaves sidecar ${goList(names)} to the kubelet: native sidecars (init containers with restartPolicy Always) are stopped by the kubelet once the main containers have exited`;
