// The /mutate-pod pipeline shared by the webhook and the CLI (spec/webhooks.md §2.1): readiness gate, SidecarSet
// injection, then container launch priority (which must see the injected sidecars).
import type { Pod } from '../api/meta.js';
import { KRUISE_GROUP } from '../api/meta.js';
import { cloneJson, podShell } from './inject/clone.js';
import { injectSidecarsInto, type InjectionContext } from './inject/index.js';
import { applyLaunchPriorityTo } from './launch-priority.js';

export const KruisePodReadyConditionType = 'KruisePodReady';

/** Whether the pod's controller ownerReference belongs to apps.kruise.io (util.IsPodOwnedByKruise). */
export function isOwnedByKruise(pod: Pod): boolean {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (!owner) return false;
  // A missing apiVersion reads as "" (Go's zero value), as the typed decode only checks the fields present.
  const apiVersion = owner.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  return slash >= 0 && apiVersion.slice(0, slash) === KRUISE_GROUP;
}

/** Appends the KruisePodReady readiness gate to kruise-owned pods that lack it (feature gate KruisePodReadinessGate off). */
export function addKruiseReadinessGate(input: Pod): Pod {
  return addKruiseReadinessGateTo(podShell(input));
}

/** addKruiseReadinessGate on a pod shell the caller owns (see podShell; its spec may be assigned, and it is returned). */
function addKruiseReadinessGateTo(pod: Pod): Pod {
  if (!isOwnedByKruise(pod)) return pod;
  const spec = (pod.spec ??= { containers: [] });
  if (!(spec.readinessGates ?? []).some((g) => g.conditionType === KruisePodReadyConditionType)) {
    spec.readinessGates = [...(spec.readinessGates ?? []), { conditionType: KruisePodReadyConditionType }];
  }
  return pod;
}

/**
 * The CREATE-time pod mutations in upstream order; UPDATE returns an unchanged copy. Never modifies `pod`; the result
 * shares the parts no step changed with it (treat both as read-only, or deep-copy the result before editing it).
 */
export function mutatePodOnCreate(pod: Pod, ctx: InjectionContext): Pod {
  if (ctx.operation !== 'CREATE') return cloneJson(pod);
  // One shell for the whole pipeline: each step assigns into it instead of copying the pod again.
  return applyLaunchPriorityTo(injectSidecarsInto(addKruiseReadinessGateTo(podShell(pod)), ctx), ctx);
}
