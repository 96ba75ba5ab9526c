// /mutate-apps-kruise-io-v1alpha1-sidecarset: defaulting + hash annotations (spec §1.4).
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { isCreateOrUpdate, mutateByDiff } from './common.js';

export function mutateSidecarSetRoute(deps: { defaults: (s: SidecarSet) => SidecarSet }): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-v1alpha1-sidecarset',
    name: 'mutate-sidecarset',
    handler: (req) => (isCreateOrUpdate(req) ? mutateByDiff<SidecarSet>(req, deps.defaults) : allowed()),
  };
}
