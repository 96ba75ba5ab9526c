// What SidecarTerminator does for one pod (spec §8.3), decided from the pod and its node kind alone. The steps run in
// order and the first failing one ends the reconcile; each is idempotent, so the next pod event simply plans again.
import type { Pod } from '../../api/meta.js';
import { mainAndSidecars, sidecarSets } from './containers.js';
import { containersCompleted, containersSucceeded, isInterestingPod, uncompleted } from './qualify.js';

export type TerminationStep =
  /** Virtual-kubelet nodes: set each sidecar's image to its KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE. */
  | { type: 'in-place'; containers: string[] }
  /** Create CRR `sidecar-termination-<pod uid>` for these sidecars, unless that CRR exists already. */
  | { type: 'crr'; containers: string[] }
  /** Patch pods/status: this phase and condition SidecarTerminated, before the ignore-exit-code sidecars are stopped. */
  | { type: 'mark-terminated'; phase: 'Succeeded' | 'Failed' };

const isTerminal = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

export function planTermination(pod: Pod, virtualKubelet: boolean): TerminationStep[] {
  if (!isInterestingPod(pod)) return [];
  const sets = sidecarSets(pod, virtualKubelet);
  const steps: TerminationStep[] = [];
  const inPlace = uncompleted(pod, sets.inPlace);
  if (inPlace.length > 0) steps.push({ type: 'in-place', containers: inPlace });
  const normal = uncompleted(pod, sets.normal);
  if (normal.length > 0) steps.push({ type: 'crr', containers: normal });
  if (sets.ignoreExitCode.size === 0 || !containersCompleted(pod, sets.normal) || !containersCompleted(pod, sets.inPlace)) return steps;
  // The phase is decided from the main containers before the sidecars go, so their exit codes cannot fail the pod.
  if (!isTerminal(pod)) steps.push({ type: 'mark-terminated', phase: containersSucceeded(pod, mainAndSidecars(pod).main) ? 'Succeeded' : 'Failed' });
  const ignore = uncompleted(pod, sets.ignoreExitCode);
  if (ignore.length > 0) steps.push({ type: 'crr', containers: ignore });
  return steps;
}
