// /validate-apps-kruise-io-imagelistpulljob (v1.9; v1.8's -v1alpha1- path too, paths.ts) for v1alpha1 and v1beta1,
// another version → 400 (spec/openkruise-v1.9.md §5.1, §6): gates first (403), then the first field error (400).
import type { ImageListPullJob } from '../../shared/api/image-list-pull-job.js';
import type { Violation } from '../../shared/errors.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ImageListPullJobDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requireGate, requireKruiseVersion } from './common.js';

export function validateImageListPullJobRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  validate: (job: ImageListPullJob) => Violation[];
}): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-imagelistpulljob',
    name: 'validate-imagelistpulljob',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      requireGate(deps.gates, 'ImagePullJobGate');
      if (!isCreateOrUpdate(req)) return allowed();
      requireKruiseVersion(req);
      decodeRequestObjects(req, ImageListPullJobDecoder);
      return fromViolations(deps.validate(requestObject(req)), 400);
    },
  };
}
