// /validate-apps-kruise-io-v1alpha1-resourcedistribution (spec §5.4): errors → 422, gate off → 403.
// Upstream also dry-run-creates spec.resource in the kruise namespace; that I/O happens here, and only its outcome
// reaches the pure validator.
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import type { Violation } from '../../shared/errors.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ResourceDistributionDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate } from './common.js';

export interface ValidateResourceDistributionDeps {
  gates: Readonly<Record<string, boolean>>;
  validate: (obj: ResourceDistribution, old: ResourceDistribution | undefined, opts: { dryRunError?: string }) => Violation[];
  /** Server-side dry-run create of the resource; resolves to the error text, or undefined on success/AlreadyExists. */
  dryRunCreate?: (resource: Record<string, unknown>) => Promise<string | undefined>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function validateResourceDistributionRoute(deps: ValidateResourceDistributionDeps): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-v1alpha1-resourcedistribution',
    name: 'validate-resourcedistribution',
    handler: async (req) => {
      requireGate(deps.gates, 'ResourceDistributionGate');
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, ResourceDistributionDecoder);
      const obj = requestObject<ResourceDistribution>(req);
      const resource = (obj.spec as { resource?: unknown } | undefined)?.resource;
      const dryRunError = deps.dryRunCreate && isObject(resource) ? await deps.dryRunCreate(resource) : undefined;
      return fromViolations(deps.validate(obj, requestOldObject(req), dryRunError === undefined ? {} : { dryRunError }), 422);
    },
  };
}
