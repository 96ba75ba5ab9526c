// The read-only steps of a SidecarSet reconcile: its matched pods, the pods it still waits to see updated
// (expectations), how each pod catches up (pod-change.ts) and what the SidecarSet's conditions are to say.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import { TerminalError } from '../../shared/reconcile/types.js';
import { matchedPods } from './matched-pods.js';
import { podChange, type PodChange } from './pod-change.js';
import { isPodSidecarUpdated, podSetHash, setHash, sidecarContainerNames } from './pod-state.js';
import { asPod, podKey, type ReconcileDeps } from './reconcile-deps.js';
import type { ConditionInputs } from './resize-conditions.js';
import { infeasibleResize, isResizeApplied, resizePatch } from './resize-state.js';
import type { Revision } from './revision-history.js';
import { diffLookup } from './sidecar-diff.js';

/** The pods the SidecarSet selects, from the pod index; a selector upstream refuses ends the SidecarSet's rounds. */
export function gatherPods(deps: ReconcileDeps, set: SidecarSet): Pod[] {
  const candidates: Pod[] = [];
  for (const key of deps.index.podsOf(set.metadata?.name ?? '')) {
    const pod = deps.pods.get(key);
    if (pod) candidates.push(pod);
  }
  try {
    return matchedPods(set, candidates, deps.namespaceLabels);
  } catch (err) {
    if (err instanceof AdmissionDeniedError) throw new TerminalError(err.message, { cause: err });
    throw err;
  }
}

/** Expectations: observe every matched pod; pods that left the set are no longer awaited. */
export function awaitedPods(deps: ReconcileDeps, set: SidecarSet, pods: readonly Pod[]): string[] {
  const { expectations } = deps;
  const name = set.metadata?.name ?? '';
  const hash = setHash(set);
  const matched = new Set<string>();
  for (const pod of pods) {
    matched.add(podKey(pod));
    expectations.observe(name, hash, podKey(pod), podSetHash(pod, set));
  }
  for (const key of expectations.pending(name)) if (!matched.has(key)) expectations.forget(name, key);
  return expectations.unsatisfied(name, hash);
}

/** How each matched pod behind the SidecarSet catches up (pod-change.ts), from the SidecarSet's stored revisions. */
export function changes(deps: ReconcileDeps, set: SidecarSet, revisions: readonly Revision[]): (pod: Pod) => PodChange {
  const name = set.metadata?.name ?? '';
  const hash = setHash(set);
  const inputs = {
    diff: diffLookup(set, revisions),
    unsupported: deps.refusals.unsupported(name, hash),
    refused: (pod: Pod) => deps.refusals.refused(name, hash, podKey(pod)),
  };
  const memo = new Map<Pod, PodChange>();
  return (pod) => {
    let c = memo.get(pod);
    if (!c) memo.set(pod, (c = podChange(set, pod, inputs)));
    return c;
  };
}

/** What the SidecarSet's conditions say (resize-conditions.ts); announces newly Infeasible pods on the pod. */
export function conditionInputs(deps: ReconcileDeps, set: SidecarSet, pods: readonly Pod[], change: (pod: Pod) => PodChange): ConditionInputs {
  const name = set.metadata?.name ?? '';
  const hash = setHash(set);
  const names = sidecarContainerNames(set);
  const newPodsOnly: ConditionInputs['newPodsOnly'][number][] = [];
  const infeasible: ConditionInputs['infeasible'][number][] = [];
  for (const pod of pods) {
    if (!isPodSidecarUpdated(set, pod)) {
      const c = change(pod);
      if (c.kind === 'new-pods-only') newPodsOnly.push({ pod: podKey(pod), reason: c.reason });
      // A pod resized in an earlier round gets its hash once kubelet applied the resize: reported as updated ones.
      if (c.kind !== 'resize' || resizePatch(set, pod, c.containers) !== null) continue;
    }
    const message = isResizeApplied(pod, names) ? undefined : infeasibleResize(pod);
    if (!message) continue;
    infeasible.push({ pod: podKey(pod), message });
    if (deps.refusals.firstReport(name, hash, podKey(pod))) {
      deps.events.event(asPod(pod), 'Warning', 'SidecarResizeInfeasible', `the node cannot give the sidecars of SidecarSet ${name} their new resources: ${message}`);
    }
  }
  const refused = deps.refusals.refusedPods(name, hash).map(([pod, message]) => ({ pod, message }));
  return { newPodsOnly, infeasible, refused, unsupported: deps.refusals.unsupported(name, hash) };
}
