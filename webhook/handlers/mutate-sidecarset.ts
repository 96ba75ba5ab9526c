// /mutate-apps-kruise-io-sidecarset (v1.9; also at v1.8's -v1alpha1- path, paths.ts): defaulting + hash annotations
// (spec §1.4). Both versions get the same defaults and hashes (spec/openkruise-v1.9.md §2.4); another version is a 400.
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { SidecarSetDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requireKruiseVersion } from './common.js';

export function mutateSidecarSetRoute(deps: { defaults: (s: SidecarSet) => SidecarSet }): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-sidecarset',
    name: 'mutate-sidecarset',
    handler: (req) => {
      if (!isCreateOrUpdate(req)) return allowed();
      requireKruiseVersion(req);
      decodeRequestObjects(req, SidecarSetDecoder);
      return mutateByDiff<SidecarSet>(req, deps.defaults);
    },
  };
}
