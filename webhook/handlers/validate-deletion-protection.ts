// The deletion-protection routes (spec/availability-guards.md §7-§8, §0.5): /validate-namespace,
// /validate-customresourcedefinition, /validate-apps-{deployment,replicaset,statefulset} (always served, as upstream
// registers them), /validate-service and /validate-ingress (only with ResourcesDeletionProtection). The CloneSet's
// DELETE reaches validate-cloneset.ts, which calls `checkDeletion` too. Gather (the counts of a Cascading namespace or
// CRD, through `count`) then decide (shared/domain/deletion-protection/rules.ts).
import { AdmissionDeniedError } from '../../shared/errors.js';
import {
  crdCascading, firstLook, namespaceCascading, type Count, type Gates, type ProtectedKind, type ProtectedObject,
} from '../../shared/domain/deletion-protection/rules.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed, errored, type AdmissionResult } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import type { DeletionCountQuery } from '../deletion-counts.js';

/** Counts for Cascading; absent (CLI, tests without an API) every count is an error, so Cascading refuses. */
export type DeletionCount = (q: DeletionCountQuery) => Promise<number>;

export interface DeletionDeps {
  gates: Gates;
  count?: DeletionCount;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The deleted object, checked for the fields the rules read (a wrong JSON type is upstream's decode error: 400). */
function deletedObject(req: AdmissionRequest): ProtectedObject | undefined {
  const o = req.oldObject;
  if (!isObject(o)) return undefined;
  const meta = o.metadata;
  if (meta !== undefined && meta !== null && !isObject(meta)) throw new AdmissionDeniedError('oldObject.metadata: expected an object', 400);
  const labels = isObject(meta) ? meta.labels : undefined;
  if (labels !== undefined && labels !== null && (!isObject(labels) || Object.values(labels).some((v) => typeof v !== 'string'))) {
    throw new AdmissionDeniedError('oldObject.metadata.labels: expected a map of strings', 400);
  }
  const spec = o.spec;
  if (spec !== undefined && spec !== null && !isObject(spec)) throw new AdmissionDeniedError('oldObject.spec: expected an object', 400);
  const replicas = isObject(spec) ? spec.replicas : undefined;
  if (replicas !== undefined && replicas !== null && !Number.isInteger(replicas)) throw new AdmissionDeniedError('oldObject.spec.replicas: expected an integer', 400);
  return o as ProtectedObject;
}

const counted = async (count: DeletionCount | undefined, q: DeletionCountQuery): Promise<Count> => {
  if (!count) return { error: 'no API access in this process' };
  try {
    return { n: await count(q) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
};

/** The verdict on a DELETE of `kind`; other operations, subresources and a missing oldObject are allowed. */
export async function checkDeletion(kind: ProtectedKind, req: AdmissionRequest, deps: DeletionDeps): Promise<AdmissionResult> {
  if (req.operation !== 'DELETE' || req.subResource) return allowed();
  const obj = deletedObject(req);
  if (!obj) return allowed();
  const look = firstLook(kind, obj as never, deps.gates);
  let message: string | undefined;
  switch (look.kind) {
    case 'allow': return allowed();
    case 'deny': message = look.message; break;
    case 'count-namespace': {
      const ns = look.namespace;
      message = await namespaceCascading(await counted(deps.count, { what: 'active-pods', namespace: ns }), () => counted(deps.count, { what: 'bound-pvcs', namespace: ns }));
      break;
    }
    case 'count-crs':
      message = crdCascading(look.ref, await counted(deps.count, { what: 'active-crs', group: look.ref.group, version: look.ref.version, plural: look.ref.plural }));
      break;
  }
  // Upstream answers with Errored(403, …): code 403, no reason field (spec §8).
  return message ? errored(403, new Error(message)) : allowed();
}

const BUILTIN_WORKLOADS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet']);

export function deletionProtectionRoutes(deps: DeletionDeps): WebhookRoute[] {
  const route = (path: string, name: string, handler: WebhookRoute['handler']): WebhookRoute => ({ path, name, handler });
  const builtin: WebhookRoute['handler'] = (req) => BUILTIN_WORKLOADS.has(req.kind.kind) ? checkDeletion('workload', req, deps) : Promise.resolve(allowed());
  const routes = [
    route('/validate-namespace', 'validate-namespace', (req) => checkDeletion('namespace', req, deps)),
    // Upstream branches on the request's kind version: v1 and v1beta1 CRDs are checked, anything else allowed.
    route('/validate-customresourcedefinition', 'validate-customresourcedefinition', (req) =>
      req.kind.version === 'v1' || req.kind.version === 'v1beta1' ? checkDeletion('crd', req, deps) : Promise.resolve(allowed())),
    route('/validate-apps-deployment', 'validate-apps-deployment', builtin),
    route('/validate-apps-replicaset', 'validate-apps-replicaset', builtin),
    route('/validate-apps-statefulset', 'validate-apps-statefulset', builtin),
  ];
  if (deps.gates.ResourcesDeletionProtection) {
    routes.push(
      route('/validate-service', 'validate-service', (req) => checkDeletion('service', req, deps)),
      route('/validate-ingress', 'validate-ingress', (req) => checkDeletion('service', req, deps)),
    );
  }
  return routes;
}
