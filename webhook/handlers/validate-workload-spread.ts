// /validate-apps-kruise-io-v1alpha1-workloadspread (spec/availability-guards.md §11): gate off → 403, CREATE and
// UPDATE validated (errors → 400, aggregated), other operations allowed. The context is the namespace's other
// WorkloadSpreads (cache) and, when a subset has a patch, the target workload read from the apiserver.
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';
import type { Violation } from '../../shared/errors.js';
import { PATCH_CHECKED_KINDS, type WorkloadSpreadValidationContext } from '../../shared/domain/validation/workload-spread.js';
import { parseGroupVersion } from '../../shared/domain/workloadspread/targets.js';
import { allowed } from '../admission/response.js';
import type { AdmissionRequest } from '../admission/review.js';
import type { WebhookRoute } from '../admission/route.js';
import { WorkloadSpreadDecoder } from '../admission/decode-object.js';
import type { AdmissionCaches } from '../caches.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requireGate } from './common.js';

export interface ValidateWorkloadSpreadDeps {
  gates: Readonly<Record<string, boolean>>;
  caches: Pick<AdmissionCaches, 'workloadSpreadsIn' | 'workloadSpreadApi'>;
  validate: (ws: WorkloadSpread, old: WorkloadSpread | undefined, ctx: WorkloadSpreadValidationContext) => Violation[];
}

/** The target's pod template when a subset has a patch and the workload exists (upstream skips the check otherwise). */
async function workloadOf(ws: WorkloadSpread, namespace: string, deps: ValidateWorkloadSpreadDeps): Promise<WorkloadSpreadValidationContext['workload']> {
  const ref = ws.spec?.targetRef;
  if (!ref || !(ws.spec?.subsets ?? []).some((s) => s.patch !== undefined && s.patch !== null)) return undefined;
  if (!PATCH_CHECKED_KINDS.includes(ref.kind)) return undefined;
  const gv = parseGroupVersion(ref.apiVersion);
  if (!gv) return undefined;
  // An Advanced StatefulSet is read as an apps/v1 StatefulSet, as upstream does (§18 #15).
  const group = ref.kind === 'StatefulSet' ? 'apps' : gv.group;
  try {
    const w = await deps.caches.workloadSpreadApi.fetchWorkload(group, ref.kind, namespace, ref.name);
    return w ? { template: w.spec?.template, volumeClaimTemplates: w.spec?.volumeClaimTemplates } : undefined;
  } catch {
    return undefined;
  }
}

export function validateWorkloadSpreadRoute(deps: ValidateWorkloadSpreadDeps): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-v1alpha1-workloadspread',
    name: 'validate-workloadspread',
    handler: async (req: AdmissionRequest) => {
      requireGate(deps.gates, 'WorkloadSpread');
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, WorkloadSpreadDecoder);
      const ws = requestObject<WorkloadSpread>(req);
      const namespace = req.namespace ?? ws.metadata?.namespace ?? '';
      const workload = await workloadOf(ws, namespace, deps);
      const ctx: WorkloadSpreadValidationContext = { others: deps.caches.workloadSpreadsIn(namespace), ...(workload ? { workload } : {}) };
      return fromViolations(deps.validate(ws, requestOldObject<WorkloadSpread>(req), ctx), 400);
    },
  };
}
