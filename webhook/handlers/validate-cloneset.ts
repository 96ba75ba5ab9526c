// /validate-apps-kruise-io-v1alpha1-cloneset (spec/cloneset.md §4): field errors → 422 with the ErrorList aggregate.
// The pods newly named in podsToDelete are read first (one GET each; bounded, pods-to-delete.ts), then the pure
// validator runs.
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import type { Violation } from '../../shared/errors.js';
import type { CloneSetValidationContext } from '../../shared/domain/validation/cloneset.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { CloneSetDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject } from './common.js';
import { readPods, tooManyNewNames, type PodReadOptions } from './pods-to-delete.js';
import { checkDeletion, type DeletionDeps } from './validate-deletion-protection.js';

export function validateCloneSetRoute(deps: {
  validate: (cs: CloneSet, old: CloneSet | undefined, ctx: CloneSetValidationContext) => Violation[];
  fetchPod: (namespace: string, name: string) => Promise<Pod | undefined>;
  /** Concurrency and deadline of the pod reads (tests shorten them). */
  podReads?: PodReadOptions;
  /** Deletion protection of a CloneSet DELETE (spec/availability-guards.md §8); without it DELETE is allowed. */
  deletion?: DeletionDeps;
}): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-v1alpha1-cloneset',
    name: 'validate-cloneset',
    handler: async (req) => {
      if (req.operation === 'DELETE' && deps.deletion) return checkDeletion('workload', req, deps.deletion);
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, CloneSetDecoder);
      const cs = requestObject<CloneSet>(req);
      const old = requestOldObject<CloneSet>(req);
      const before = new Set(old?.spec?.scaleStrategy?.podsToDelete ?? []);
      const ns = cs.metadata?.namespace ?? req.namespace ?? '';
      const names = [...new Set(cs.spec?.scaleStrategy?.podsToDelete ?? [])].filter((n) => !before.has(n));
      const tooMany = tooManyNewNames(names.length);
      if (tooMany.length) return fromViolations(tooMany, 422);
      const found = await readPods(deps.fetchPod, ns, names, deps.podReads);
      const withNs = ns && !cs.metadata?.namespace ? { ...cs, metadata: { ...cs.metadata, namespace: ns } } : cs;
      return fromViolations(deps.validate(withNs, old, { getPod: (_ns, n) => found.get(n) }), 422);
    },
  };
}
