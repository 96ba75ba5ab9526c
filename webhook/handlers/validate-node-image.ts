// /validate-apps-kruise-io-nodeimage (v1.9; v1.8's -v1alpha1- path too, paths.ts)
// for v1alpha1 and v1beta1, another version → 400 (spec/openkruise-v1.9.md §5.1) (spec §5.3): field errors → 400.
import type { NodeImage } from '../../shared/api/node-image.js';
import type { Violation } from '../../shared/errors.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { NodeImageDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate, requireKruiseVersion } from './common.js';

export function validateNodeImageRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  validate: (obj: NodeImage, old: NodeImage | undefined) => Violation[];
}): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-nodeimage',
    name: 'validate-nodeimage',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      if (!isCreateOrUpdate(req)) return allowed();
      requireKruiseVersion(req);
      decodeRequestObjects(req, NodeImageDecoder);
      return fromViolations(deps.validate(requestObject(req), requestOldObject(req)), 400);
    },
  };
}
