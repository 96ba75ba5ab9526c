// /validate-apps-kruise-io-v1alpha1-nodeimage (spec §5.3): field errors → 400.
import type { NodeImage } from '../../shared/api/node-image.js';
import type { Violation } from '../../shared/errors.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { NodeImageDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate } from './common.js';

export function validateNodeImageRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  validate: (obj: NodeImage, old: NodeImage | undefined) => Violation[];
}): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-v1alpha1-nodeimage',
    name: 'validate-nodeimage',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, NodeImageDecoder);
      return fromViolations(deps.validate(requestObject(req), requestOldObject(req)), 400);
    },
  };
}
