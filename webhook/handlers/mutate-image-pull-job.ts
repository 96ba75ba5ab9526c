// /mutate-apps-kruise-io-imagepulljob (v1.9; v1.8's -v1alpha1- path too, paths.ts)
// for v1alpha1 and v1beta1, another version → 400 (spec/openkruise-v1.9.md §5.1): defaults, and the
// deletion-protection finalizer on a v1alpha1 CREATE only (spec §5.2; spec/openkruise-v1.9.md §5.1).
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ImagePullJobDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requireGate, requireKruiseVersion, type KruiseVersion } from './common.js';

export function mutateImagePullJobRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  defaults: (job: ImagePullJob, operation: AdmissionRequest['operation'], version: KruiseVersion) => ImagePullJob;
}): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-imagepulljob',
    name: 'mutate-imagepulljob',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      requireGate(deps.gates, 'ImagePullJobGate');
      if (!isCreateOrUpdate(req)) return allowed();
      const version = requireKruiseVersion(req);
      decodeRequestObjects(req, ImagePullJobDecoder);
      return mutateByDiff<ImagePullJob>(req, (job) => deps.defaults(job, req.operation, version));
    },
  };
}
