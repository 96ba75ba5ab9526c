// /validate-apps-kruise-io-v1alpha1-resourcedistribution (spec §5.4): errors → 422, gate off → 403.
// Gather, then decide: the checks that need no I/O run first, so a request for a kind we never distribute costs no
// API call (review M2: it used to be dry-run-created first); then the author's right to write the resource where it
// is distributed (review H5, 403 naming the first namespace refused); then upstream's dry-run create.
import { isDeepStrictEqual } from 'node:util';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import type { Violation } from '../../shared/errors.js';
import { allowed, denied } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ResourceDistributionDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate } from './common.js';
import { requestUser, writeRefusal, type CanWrite } from './write-access.js';

export interface ValidateResourceDistributionDeps {
  gates: Readonly<Record<string, boolean>>;
  validate: (obj: ResourceDistribution, old: ResourceDistribution | undefined, opts: {
    dryRunError?: string; namespaceLabels?: (name: string) => Record<string, string> | undefined;
  }) => Violation[];
  /** Labels of an existing namespace, from the webhook's namespace cache. */
  namespaceLabels?: (name: string) => Record<string, string> | undefined;
  /** Server-side dry-run create of the resource; resolves to the error text, or undefined on success/AlreadyExists. */
  dryRunCreate?: (resource: Record<string, unknown>) => Promise<string | undefined>;
  /** SubjectAccessReview for the requesting user; offline callers (CLI, tests of other routes) leave it out. */
  canWrite?: CanWrite;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const plural: Record<string, string> = { Secret: 'secrets', ConfigMap: 'configmaps' };

export function validateResourceDistributionRoute(deps: ValidateResourceDistributionDeps): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-v1alpha1-resourcedistribution',
    name: 'validate-resourcedistribution',
    handler: async (req, ctx) => {
      requireGate(deps.gates, 'ResourceDistributionGate');
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, ResourceDistributionDecoder);
      const obj = requestObject<ResourceDistribution>(req);
      const old = requestOldObject<ResourceDistribution>(req);
      const namespaceLabels = deps.namespaceLabels;
      const offline = deps.validate(obj, old, namespaceLabels ? { namespaceLabels } : {});
      if (offline.length) return fromViolations(offline, 422);
      // The validator has checked that spec.resource is a v1 Secret or ConfigMap object.
      const resource = obj.spec?.resource as Record<string, unknown> | undefined;
      if (!isObject(resource)) return fromViolations([], 422);
      // An update that leaves spec alone distributes nothing new: the garbage collector's finalizer edits and label
      // edits by users without write access to the copies must pass.
      if (deps.canWrite && (!old || !isDeepStrictEqual(old.spec, obj.spec))) {
        const refusal = await writeRefusal(deps.canWrite, requestUser(req), plural[String(resource.kind)]!, obj.spec?.targets, ctx?.source);
        if (refusal) return denied(refusal);
      }
      const dryRunError = deps.dryRunCreate ? await deps.dryRunCreate(resource) : undefined;
      if (dryRunError === undefined) return fromViolations([], 422);
      return fromViolations(deps.validate(obj, old, { dryRunError, ...(namespaceLabels ? { namespaceLabels } : {}) }), 422);
    },
  };
}
