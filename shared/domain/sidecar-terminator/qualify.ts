// Which pods SidecarTerminator works on (spec node-probes-and-sidecar-lifecycle.md §8.2, upstream isInterestingPod),
// used both to enqueue a pod change and to reconcile. Only the pod itself is read, so it is cheap enough to run on
// every pod event of the cluster: one pass over the containers and one over the statuses.
import type { Pod } from '../../api/meta.js';
import { mainAndSidecars } from './containers.js';

type Status = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/**
 * Every status named in `names` is terminated, and the status list is as long as the container list (before the
 * kubelet reports every container nothing counts as completed). A name without a status does not hold it back, as
 * upstream's loop over the statuses.
 */
export function containersCompleted(pod: Pod, names: ReadonlySet<string>, exitZero = false): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  if ((pod.spec?.containers ?? []).length !== statuses.length) return false;
  return statuses.every((s) => !names.has(s.name) || isDone(s, exitZero));
}

/** As containersCompleted, each terminated with exit code 0. */
export const containersSucceeded = (pod: Pod, names: ReadonlySet<string>): boolean => containersCompleted(pod, names, true);

const isDone = (s: Status, exitZero: boolean): boolean => s.state?.terminated != null && (!exitZero || s.state.terminated.exitCode === 0);

/** The names of `names` whose status is not terminated, in spec order (upstream: a set, in no order). */
export function uncompleted(pod: Pod, names: ReadonlySet<string>): string[] {
  const terminated = new Set((pod.status?.containerStatuses ?? []).filter((s) => s.state?.terminated != null).map((s) => s.name));
  return (pod.spec?.containers ?? []).map((c) => c.name).filter((n) => names.has(n) && !terminated.has(n));
}

/** A Job-like pod (restartPolicy Never or OnFailure) past Pending and not being deleted. */
export function isJobLike(pod: Pod): boolean {
  const policy = pod.spec?.restartPolicy;
  return !pod.metadata?.deletionTimestamp && pod.status?.phase !== 'Pending' && (policy === 'Never' || policy === 'OnFailure');
}

/** `Never`: every main container ended (any exit code); `OnFailure`: every main container ended with exit code 0. */
export function mainContainersFinished(pod: Pod, main: ReadonlySet<string>): boolean {
  return pod.spec?.restartPolicy === 'OnFailure' ? containersSucceeded(pod, main) : containersCompleted(pod, main);
}

/**
 * The pod has sidecars not yet all terminated and main containers that have finished: SidecarTerminator has work.
 * A pod already Succeeded or Failed still qualifies while a sidecar runs.
 */
export function isInterestingPod(pod: Pod): boolean {
  if (!isJobLike(pod)) return false;
  const { main, sidecars } = mainAndSidecars(pod);
  if (sidecars.size === 0 || containersCompleted(pod, sidecars)) return false;
  return mainContainersFinished(pod, main);
}
