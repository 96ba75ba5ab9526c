// Native sidecars (init containers with `restartPolicy: Always`) that the SidecarSet controller updates in place, a
// kruise-ts extension (docs/compatibility.md): OpenKruise v1.9.0 refuses RollingUpdate for them, while kubelet 1.34
// restarts a native sidecar whose image changed without touching the main containers, and resizes it in place.
// They live in `spec.initContainers` / `status.initContainerStatuses`; pod container names are unique across both
// lists, so the controller looks a sidecar up by name in either.
import type { Container, Pod } from '../../shared/api/meta.js';
import type { SidecarContainer, SidecarSet } from '../../shared/api/sidecarset.js';
import { isHotUpgrade } from '../../shared/domain/inject/hot-upgrade.js';

type ContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** A native sidecar the controller updates in place; HotUpgrade ones stay as upstream leaves them (never updated). */
export const isInPlaceNative = (c: SidecarContainer) => c.restartPolicy === 'Always' && !isHotUpgrade(c);

const natives = new WeakMap<SidecarSet, readonly SidecarContainer[]>();

/** The SidecarSet's native sidecars updated in place, in its order (memoised: cached SidecarSets are replaced). */
export function inPlaceNatives(set: SidecarSet): readonly SidecarContainer[] {
  let out = natives.get(set);
  if (!out) natives.set(set, (out = (set.spec?.initContainers ?? []).filter(isInPlaceNative)));
  return out;
}

/** The pod's containers, then its init containers (names are unique across both). */
export const podContainers = (pod: Pod): Container[] => [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];

/** The pod's container statuses, then its init container statuses. */
export const podStatuses = (pod: Pod): ContainerStatus[] =>
  [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];

/** The SidecarSet's sidecars (containers, then in-place natives) by name, as the SidecarSet declares them. */
export function declaredSidecars(set: SidecarSet): Map<string, SidecarContainer> {
  return new Map([...(set.spec?.containers ?? []), ...inPlaceNatives(set)].map((c) => [c.name, c]));
}

const initStatus = (pod: Pod, name: string) => pod.status?.initContainerStatuses?.find((s) => s.name === name);

/** Kubelet reports the native sidecar running (its new container, once restarted). */
export const isNativeRunning = (pod: Pod, name: string) => Boolean(initStatus(pod, name)?.state?.running);

/**
 * The native sidecar serves: running, started (startup probe passed) and ready. A native sidecar restarting for its
 * new image leaves the pod Ready (kubelet 1.34), so this, not the pod's Ready condition, says when its restart ends.
 */
export function isNativeUp(pod: Pod, name: string): boolean {
  const s = initStatus(pod, name);
  return Boolean(s?.state?.running) && s?.started !== false && s?.ready === true;
}

/**
 * The SidecarSet's in-place native sidecars the pod carries (a pod injected before one was added to the SidecarSet
 * lacks it: as upstream does for containers, what the pod does not have is not looked at).
 */
export const podNatives = (set: SidecarSet, pod: Pod): readonly SidecarContainer[] => {
  const natives = inPlaceNatives(set);
  if (natives.length === 0) return natives;
  return natives.filter((c) => pod.spec?.initContainers?.some((x) => x.name === c.name));
};

/** Every in-place native sidecar of the SidecarSet the pod carries is up. */
export const nativesUp = (set: SidecarSet, pod: Pod) => podNatives(set, pod).every((c) => isNativeUp(pod, c.name));
