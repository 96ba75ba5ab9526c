// The /mutate-pod pipeline shared by the webhook and the CLI (spec/webhooks.md §2.1): readiness gate, SidecarSet
// injection, then container launch priority (which must see the injected sidecars).
import type { Pod } from '../api/meta.js';
import { KRUISE_GROUP } from '../api/meta.js';
import { cloneJson } from './inject/clone.js';
import { injectSidecarsInto, type InjectionContext } from './inject/index.js';
import { applyLaunchPriorityTo } from './launch-priority.js';

export const KruisePodReadyConditionType = 'KruisePodReady';

/** Whether the pod's controller ownerReference belongs to apps.kruise.io (util.IsPodOwnedByKruise). */
export function isOwnedByKruise(pod: Pod): boolean {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (!owner) return false;
  const slash = owner.apiVersion.indexOf('/');
  return slash >= 0 && owner.apiVersion.slice(0, slash) === KRUISE_GROUP;
}

/** Appends the KruisePodReady readiness gate to kruise-owned pods that lack it (feature gate KruisePodReadinessGate off). */
export function addKruiseReadinessGate(input: Pod): Pod {
  return addKruiseReadinessGateTo(cloneJson(input));
}

/** addKruiseReadinessGate on a pod the caller owns (modified and returned). */
function addKruiseReadinessGateTo(pod: Pod): Pod {
  if (!isOwnedByKruise(pod)) return pod;
  const spec = (pod.spec ??= { containers: [] });
  if (!(spec.readinessGates ?? []).some((g) => g.conditionType === KruisePodReadyConditionType)) {
    spec.readinessGates = [...(spec.readinessGates ?? []), { conditionType: KruisePodReadyConditionType }];
  }
  return pod;
}

/** The CREATE-time pod mutations in upstream order; UPDATE returns an unchanged copy. Never modifies `pod`. */
export function mutatePodOnCreate(pod: Pod, ctx: InjectionContext): Pod {
  // One copy for the whole pipeline: each step works on it in place instead of cloning the pod again.
  const copy = cloneJson(pod);
  if (ctx.operation !== 'CREATE') return copy;
  return applyLaunchPriorityTo(injectSidecarsInto(addKruiseReadinessGateTo(copy), ctx), ctx);
}
