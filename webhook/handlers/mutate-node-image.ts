// /mutate-apps-kruise-io-nodeimage (v1.9; v1.8's -v1alpha1- path too, paths.ts)
// for v1alpha1 and v1beta1, another version → 400 (spec/openkruise-v1.9.md §5.1): createdAt/pullPolicy defaults, tags sorted (spec §5.3).
import type { NodeImage } from '../../shared/api/node-image.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { NodeImageDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requireGate, requireKruiseVersion } from './common.js';

export function mutateNodeImageRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  defaults: (obj: NodeImage, now: Date) => NodeImage;
  now: () => Date;
}): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-nodeimage',
    name: 'mutate-nodeimage',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      if (!isCreateOrUpdate(req)) return allowed();
      requireKruiseVersion(req);
      decodeRequestObjects(req, NodeImageDecoder);
      return mutateByDiff<NodeImage>(req, (obj) => deps.defaults(obj, deps.now()));
    },
  };
}
