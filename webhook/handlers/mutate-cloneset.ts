// /mutate-apps-kruise-io-v1alpha1-cloneset: CloneSet defaulting (spec/cloneset.md §1.4); template defaults on CREATE
// and on an UPDATE that changes the template.
import type { CloneSet } from '../../shared/api/cloneset.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { CloneSetDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requestOldObject } from './common.js';

export function mutateCloneSetRoute(deps: { defaults: (cs: CloneSet, old: CloneSet | undefined) => CloneSet }): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-v1alpha1-cloneset',
    name: 'mutate-cloneset',
    handler: (req) => {
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, CloneSetDecoder);
      const old = requestOldObject<CloneSet>(req);
      return mutateByDiff<CloneSet>(req, (cs) => deps.defaults(cs, old));
    },
  };
}
