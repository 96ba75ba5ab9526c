// /mutate-apps-kruise-io-v1alpha1-imagepulljob: defaults + deletion-protection finalizer on CREATE (spec §5.2).
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ImagePullJobDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requireGate } from './common.js';

export function mutateImagePullJobRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  defaults: (job: ImagePullJob, operation: AdmissionRequest['operation']) => ImagePullJob;
}): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-v1alpha1-imagepulljob',
    name: 'mutate-imagepulljob',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      requireGate(deps.gates, 'ImagePullJobGate');
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, ImagePullJobDecoder);
      return mutateByDiff<ImagePullJob>(req, (job) => deps.defaults(job, req.operation));
    },
  };
}
