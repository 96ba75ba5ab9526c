// /mutate-apps-kruise-io-v1alpha1-sidecarset: defaulting + hash annotations (spec §1.4).
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { SidecarSetDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff } from './common.js';

export function mutateSidecarSetRoute(deps: { defaults: (s: SidecarSet) => SidecarSet }): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-v1alpha1-sidecarset',
    name: 'mutate-sidecarset',
    handler: (req) => {
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, SidecarSetDecoder);
      return mutateByDiff<SidecarSet>(req, deps.defaults);
    },
  };
}
