// The one API call of an in-place sidecar resize: `PATCH pods/NAME/resize` (Kubernetes 1.33+, on by default), and
// what its refusals mean. The apiserver validates the new resources (QoS class unchanged, requests ≤ limits,
// quotas…); kubelet then applies them or reports PodResizePending (resize-state.ts).
import type { Pod } from '../../shared/api/meta.js';
import { resources } from '../../shared/kube/resources.js';
import { KubeApiError, type KubeRest } from '../../shared/kube/rest.js';
import { FIELD_MANAGER } from './revision-sync.js';

export type ResizeOutcome =
  /** The pod as the resize left it (a new resourceVersion: the next write of the pod starts from it). */
  | { kind: 'resized'; pod: Pod }
  | { kind: 'gone' }
  /** The cluster cannot resize at all: no pods/resize subresource (before 1.33, or the feature turned off). */
  | { kind: 'unsupported'; message: string }
  /** The API refused this pod's resize (validation, admission, quota, RBAC). */
  | { kind: 'refused'; message: string };

const REFUSALS = new Set([400, 403, 422]);

/**
 * A refusal of /validate-pod (vpod.kb.io): a PodUnavailableBudget with no budget left now, or its status write
 * conflicting (spec/availability-guards.md §3.5).
 */
export const isPubRefusal = (message: string | undefined): boolean =>
  /admission webhook "vpod\.kb\.io" denied|podunavailablebudget\.policy\.kruise\.io "[^"]*" is forbidden/.test(message ?? '');

/** Sends the resize; a 404 for a pod that still exists is the subresource missing, not the pod. */
export async function resizePod(rest: KubeRest, at: { namespace: string; name: string }, patch: object): Promise<ResizeOutcome> {
  try {
    return { kind: 'resized', pod: await rest.patch<Pod>(resources.pods, { ...at, subresource: 'resize' }, 'strategic', patch, { fieldManager: FIELD_MANAGER }) };
  } catch (err) {
    if (!(err instanceof KubeApiError)) throw err;
    if (err.code === 404) {
      if (!(await rest.find(resources.pods, at))) return { kind: 'gone' };
      return { kind: 'unsupported', message: 'the cluster has no pods/resize subresource (Kubernetes 1.33+ with InPlacePodVerticalScaling): resources changes reach new pods only' };
    }
    if (err.code === 405) return { kind: 'unsupported', message: `pods/resize is not allowed here (405 ${err.statusMessage}): resources changes reach new pods only` };
    // A PodUnavailableBudget's refusal is for now, not for good: the error retries the reconcile with backoff.
    if (err.code === 403 && isPubRefusal(err.statusMessage)) throw err;
    if (REFUSALS.has(err.code)) return { kind: 'refused', message: `${err.reason ?? err.code}: ${err.statusMessage}` };
    throw err;
  }
}
