// /validate-apps-kruise-io-podprobemarker (spec/node-probes-and-sidecar-lifecycle.md §3.1): undecodable → 400, then
// the gates (PodProbeMarkerGate, then KruiseDaemon) → 403, then field errors → 400; success is allowed with no reason,
// as upstream's ValidationResponse(true, ""). OpenKruise has no webhook for NodePodProbe.
import type { PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import type { Violation } from '../../shared/errors.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { PodProbeMarkerDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate } from './common.js';

export function validatePodProbeMarkerRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  validate: (obj: PodProbeMarker, old: PodProbeMarker | undefined) => Violation[];
}): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-podprobemarker',
    name: 'validate-podprobemarker',
    handler: (req) => {
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, PodProbeMarkerDecoder);
      requireGate(deps.gates, 'PodProbeMarkerGate');
      requireGate(deps.gates, 'KruiseDaemon');
      const errors = deps.validate(requestObject(req), requestOldObject(req));
      return errors.length ? fromViolations(errors, 400) : allowed();
    },
  };
}
