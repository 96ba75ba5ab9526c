// /mutate-apps-kruise-io-imagelistpulljob (v1.9; v1.8's -v1alpha1- path too, paths.ts) for v1alpha1 and v1beta1,
// another version → 400 (spec/openkruise-v1.9.md §5.1, §6): defaults only, the same in both versions.
import type { ImageListPullJob } from '../../shared/api/image-list-pull-job.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ImageListPullJobDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requireGate, requireKruiseVersion } from './common.js';

export function mutateImageListPullJobRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  defaults: (job: ImageListPullJob) => ImageListPullJob;
}): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-imagelistpulljob',
    name: 'mutate-imagelistpulljob',
    handler: (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      requireGate(deps.gates, 'ImagePullJobGate');
      if (!isCreateOrUpdate(req)) return allowed();
      requireKruiseVersion(req);
      decodeRequestObjects(req, ImageListPullJobDecoder);
      return mutateByDiff<ImageListPullJob>(req, deps.defaults);
    },
  };
}
