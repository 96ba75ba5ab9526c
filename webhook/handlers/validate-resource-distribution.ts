// /validate-apps-kruise-io-v1alpha1-resourcedistribution (spec §5.4): errors → 422, gate off → 403.
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import type { Violation } from '../../shared/errors.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate } from './common.js';

export function validateResourceDistributionRoute(deps: {
  gates: Readonly<Record<string, boolean>>;
  validate: (obj: ResourceDistribution, old: ResourceDistribution | undefined) => Violation[];
}): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-v1alpha1-resourcedistribution',
    name: 'validate-resourcedistribution',
    handler: (req) => {
      requireGate(deps.gates, 'ResourceDistributionGate');
      if (!isCreateOrUpdate(req)) return allowed();
      return fromViolations(deps.validate(requestObject(req), requestOldObject(req)), 422);
    },
  };
}
