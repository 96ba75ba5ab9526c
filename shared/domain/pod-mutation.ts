// The /mutate-pod pipeline shared by the webhook and the CLI (spec/webhooks.md §2.1): readiness gate, SidecarSet
// injection, then container launch priority (which must see the injected sidecars).
import type { Pod } from '../api/meta.js';
import { KRUISE_GROUP } from '../api/meta.js';
import { injectSidecars, type InjectionContext } from './inject/index.js';
import { applyLaunchPriority } from './launch-priority.js';

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
  const pod = structuredClone(input);
  if (!isOwnedByKruise(pod)) return pod;
  const spec = (pod.spec ??= { containers: [] });
  if (!(spec.readinessGates ?? []).some((g) => g.conditionType === KruisePodReadyConditionType)) {
    spec.readinessGates = [...(spec.readinessGates ?? []), { conditionType: KruisePodReadyConditionType }];
  }
  return pod;
}

/** The CREATE-time pod mutations in upstream order; UPDATE returns an unchanged copy. Never modifies `pod`. */
export function mutatePodOnCreate(pod: Pod, ctx: InjectionContext): Pod {
  if (ctx.operation !== 'CREATE') return structuredClone(pod);
  return applyLaunchPriority(injectSidecars(addKruiseReadinessGate(pod), ctx), ctx);
}
