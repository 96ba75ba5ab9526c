// /validate-apps-kruise-io-imagepulljob (v1.9; v1.8's -v1alpha1- path too, paths.ts)
// for v1alpha1 and v1beta1, another version → 400 (spec/openkruise-v1.9.md §5.1) (spec §5.2): field errors → 400, gates → 403.
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { Violation } from '../../shared/errors.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ImagePullJobDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate, requireKruiseVersion } from './common.js';

export function validateImagePullJobRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  validate: (job: ImagePullJob, old: ImagePullJob | undefined) => Violation[];
  /** Upstream answers most violations with 400 but some (pullSecrets immutability) with 403. */
  denialCode?: (v: Violation) => 400 | 403;
}): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-imagepulljob',
    name: 'validate-imagepulljob',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      requireGate(deps.gates, 'ImagePullJobGate');
      if (!isCreateOrUpdate(req)) return allowed();
      requireKruiseVersion(req);
      decodeRequestObjects(req, ImagePullJobDecoder);
      const vs = deps.validate(requestObject(req), requestOldObject(req));
      return fromViolations(vs, vs.length && deps.denialCode ? deps.denialCode(vs[0]!) : 400);
    },
  };
}
