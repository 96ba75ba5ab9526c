// Which PodUnavailableBudget guards a pod (GetPubForPod, spec/availability-guards.md §3.6): the first PUB of the
// pod's namespace whose targetRef names the pod's top workload, or whose valid, non-empty selector matches the pod.
import type { Pod } from '../../api/meta.js';
import type { PodUnavailableBudget } from '../../api/pod-unavailable-budget.js';
import { compileLabelSelector } from '../label-selector.js';

/** A workload by group (version ignored), kind and name. */
export interface WorkloadRef { apiVersion: string; kind: string; name: string }

export const groupOf = (apiVersion: string | undefined): string => { const v = apiVersion ?? ''; const i = v.indexOf('/'); return i < 0 ? '' : v.slice(0, i); };

export const sameWorkload = (a: WorkloadRef, b: { apiVersion?: string; kind?: string; name?: string }): boolean =>
  groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;

/** The selector's matcher, or undefined when it is empty or invalid (such a selector matches nothing here). */
export function selectorMatcher(pub: PodUnavailableBudget): ((labels: Record<string, string> | undefined) => boolean) | undefined {
  const s = pub.spec?.selector;
  if (!s || Object.keys(s.matchLabels ?? {}).length + (s.matchExpressions?.length ?? 0) === 0) return undefined;
  const m = compileLabelSelector(s);
  return (labels) => { try { return m(labels); } catch { return false; } };
}

/**
 * The PUB guarding `pod` among `pubs` (the namespace's, cache order), given its resolved top workload (undefined
 * when the pod has no controller or it could not be resolved).
 */
export function pubForPod(pod: Pod, pubs: readonly PodUnavailableBudget[], workload: WorkloadRef | undefined): PodUnavailableBudget | undefined {
  const ns = pod.metadata?.namespace ?? '';
  for (const pub of pubs) {
    if ((pub.metadata?.namespace ?? '') !== ns) continue;
    if (pub.spec?.targetRef && workload) {
      if (sameWorkload(workload, pub.spec.targetRef)) return pub;
      continue;
    }
    if (selectorMatcher(pub)?.(pod.metadata?.labels)) return pub;
  }
  return undefined;
}

/** The pod's controller owner reference as a workload, or undefined. */
export function controllerOf(obj: { metadata?: { ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; controller?: boolean }> } }): WorkloadRef | undefined {
  const o = obj.metadata?.ownerReferences?.find((r) => r.controller === true);
  return o ? { apiVersion: o.apiVersion, kind: o.kind, name: o.name } : undefined;
}
