// /mutate-apps-kruise-io-v1alpha1-nodeimage: createdAt/pullPolicy defaults, tags sorted (spec §5.3).
import type { NodeImage } from '../../shared/api/node-image.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { NodeImageDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requireGate } from './common.js';

export function mutateNodeImageRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  defaults: (obj: NodeImage, now: Date) => NodeImage;
  now: () => Date;
}): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-v1alpha1-nodeimage',
    name: 'mutate-nodeimage',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, NodeImageDecoder);
      return mutateByDiff<NodeImage>(req, (obj) => deps.defaults(obj, deps.now()));
    },
  };
}
