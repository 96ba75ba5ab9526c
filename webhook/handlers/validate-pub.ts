// /validate-policy-kruise-io-podunavailablebudget (spec/availability-guards.md §2): 400 with both PUB gates off,
// else the PUB's violations against the namespace's other PUBs (from the cache), answered with 400 as upstream.
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { AdmissionDeniedError, formatViolation, type Violation } from '../../shared/errors.js';
import { allowed, errored } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { PodUnavailableBudgetDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, requestObject, requestOldObject } from './common.js';

export const PUB_GATES_OFF = 'feature PodUnavailableBudget is invalid, please open via feature-gate(PodUnavailableBudgetDeleteGate, PodUnavailableBudgetUpdateGate)';
/** Violations shown in one refusal (each item of the operations annotation may add one). */
const MAX_SHOWN = 100;

export function validatePubRoute(deps: {
  enabled: boolean;
  validate: (pub: PodUnavailableBudget, old: PodUnavailableBudget | undefined, others: readonly PodUnavailableBudget[] | Error) => Violation[];
  pubs: (namespace: string) => readonly PodUnavailableBudget[];
}): WebhookRoute {
  return {
    path: '/validate-policy-kruise-io-podunavailablebudget',
    name: 'validate-podunavailablebudget',
    handler: (req) => {
      if (!deps.enabled) throw new AdmissionDeniedError(PUB_GATES_OFF, 400);
      decodeRequestObjects(req, PodUnavailableBudgetDecoder);
      const pub = requestObject<PodUnavailableBudget>(req);
      if (req.operation === 'UPDATE' && requestOldObject(req) === undefined) throw new AdmissionDeniedError('request.oldObject must be a JSON object', 400);
      if (typeof pub.metadata !== 'object' || pub.metadata === null) throw new AdmissionDeniedError('request.object is not a valid PodUnavailableBudget: metadata: expected an object', 400);
      const ns = pub.metadata.namespace ?? req.namespace ?? '';
      const withNs = pub.metadata.namespace ? pub : { ...pub, metadata: { ...pub.metadata, namespace: ns } };
      const vs = deps.validate(withNs, requestOldObject<PodUnavailableBudget>(req), deps.pubs(ns));
      if (vs.length === 0) return allowed();
      // The aggregate collapses identical texts (apimachinery's NewAggregate of a deduplicated list).
      const texts = [...new Set(vs.map(formatViolation))];
      const shown = texts.slice(0, MAX_SHOWN);
      const message = shown.length === 1 ? shown[0]! : `[${shown.join(', ')}]${texts.length > MAX_SHOWN ? ` and ${texts.length - MAX_SHOWN} more errors` : ''}`;
      return errored(400, new Error(message));
    },
  };
}
