// The ResourceDistribution handler's SubjectAccessReviews (review H5), sent through the project's REST client: every
// request has a transport timeout (review N-L3: client-node's makeApiClient client had none, so a wedged apiserver
// connection kept a request pending forever after the review had been answered). Answers are cached per user
// (cachedCanWrite); the SARs a source can cause are budgeted per source (sar-budget.ts).
import type { KubernetesObject } from '@kubernetes/client-node';
import { resources } from '../shared/kube/resources.js';
import { KubeApiError, type KubeRest } from '../shared/kube/rest.js';
import { budgetedCanWrite, type SarBudgetOptions } from './handlers/sar-budget.js';
import { cachedCanWrite, type CanWrite } from './handlers/write-access.js';

interface SubjectAccessReview extends KubernetesObject {
  spec: object;
  status?: { allowed?: boolean };
}

/** The apiserver's own message for a failed call, never a response body quoted whole. */
const reason = (err: unknown): string => (err instanceof KubeApiError ? err.statusMessage : err instanceof Error ? err.message : String(err));

/**
 * One SubjectAccessReview for the requesting user. `rest` must carry the admission call timeout (main.ts builds it
 * with the webhook's ADMISSION_CALL_TIMEOUT_MS): the review is answered within it, and the request is destroyed then.
 */
export function subjectAccessReview(rest: KubeRest): CanWrite {
  return async (user, verb, resource, namespace) => {
    const body: SubjectAccessReview = {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: user.username, uid: user.uid, groups: user.groups, extra: user.extra,
        resourceAttributes: { group: '', resource, verb, ...(namespace ? { namespace } : {}) } },
    };
    try {
      const r = await rest.create<SubjectAccessReview>(resources.subjectAccessReviews, body);
      return r.status?.allowed === true;
    } catch (err) {
      throw new Error(`cannot check whether user "${user.username}" may ${verb} ${resource} in ${namespace ? `namespace "${namespace}"` : 'every namespace'}: ${reason(err)}`);
    }
  };
}

/** What the webhook wires: cached answers in front of a per-source budget in front of the SAR. */
export function subjectAccess(rest: KubeRest, o: SarBudgetOptions): CanWrite {
  return cachedCanWrite(budgetedCanWrite(subjectAccessReview(rest), o), { now: o.now });
}
