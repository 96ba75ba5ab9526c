// /validate-pod (spec/availability-guards.md §3.2, §17.1): pods UPDATE/DELETE and pods/eviction CREATE. The steps
// run in upstream's order — WorkloadSpread deletion bookkeeping (§13), then the checks that may deny; each is one
// call into its module. WorkloadSpread never denies.
import type { AdmissionRequest } from '../admission/review.js';
import { allowed, type AdmissionResult } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { decodeObject, EvictionDecoder, PodDecoder } from '../admission/decode-object.js';

export interface ValidatePodDeps {
  /** FEATURE_GATES PodWebhook. */
  enabled: boolean;
  /** §13: records a DELETE or eviction; throws (AdmissionDeniedError 400) only when it cannot read or write. */
  workloadSpread: (req: AdmissionRequest) => Promise<void> | void;
}

export function validatePodRoute(deps: ValidatePodDeps): WebhookRoute {
  const answer = (): AdmissionResult => allowed();
  return {
    path: '/validate-pod',
    name: 'validate-pod',
    handler: (req) => {
      if (!deps.enabled) return answer();
      if (req.resource && req.resource.resource !== 'pods') return answer();
      // The typed-decoding step of what the steps read (400 naming the field, as upstream's decoder answers).
      if (req.object !== undefined && req.object !== null) decodeObject(req.object, req.subResource === 'eviction' ? EvictionDecoder : PodDecoder, 'object');
      if (req.oldObject !== undefined && req.oldObject !== null) decodeObject(req.oldObject, PodDecoder, 'oldObject');
      const pending = deps.workloadSpread(req);
      return pending instanceof Promise ? pending.then(answer) : answer();
    },
  };
}
