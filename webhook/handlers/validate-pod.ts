// /validate-pod (spec/availability-guards.md §3.2, §3.5): pod DELETE and pods/eviction under
// PodUnavailableBudgetDeleteGate, pod UPDATE (and kruise-ts's pods/resize) under PodUnavailableBudgetUpdateGate,
// checked against the pod's PodUnavailableBudget. The cheap steps run here on the cached PUB; spending goes to the
// main thread (spendPub), which writes the PUB's status with optimistic concurrency. On DELETE and eviction the
// WorkloadSpread bookkeeping (§13) runs first, as upstream (§17.1); it never denies, and a PUB denial after it does
// not undo its status write (upstream's order, spec §3.2 step 3).
import type { Pod } from '../../shared/api/meta.js';
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { podExemption, pubExemption, relatedPubName } from '../../shared/domain/pub/budget.js';
import type { SpendRequest, SpendResult } from '../../shared/domain/pub/spend.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed, denied, type AdmissionResult } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { decodeObject, EvictionDecoder, PodDecoder } from '../admission/decode-object.js';
import { classifyBudgetRequest, type BudgetGates } from './pod-budget-request.js';

export interface ValidatePodDeps {
  gates: BudgetGates & { podWebhook: boolean; inPlacePodVerticalScaling: boolean };
  pub: (namespace: string, name: string) => PodUnavailableBudget | undefined;
  fetchPod: (namespace: string, name: string) => Promise<Pod | undefined>;
  /** Absent (CLI, tests without an apiserver): a check that must spend is answered 500. */
  spendPub?: (r: SpendRequest) => Promise<SpendResult>;
  /** With WorkloadSpread on: records a DELETE or eviction in the pod's subset; throws (400) only when it cannot read or write. */
  workloadSpread?: (req: AdmissionRequest) => Promise<void> | void;
}

/** §3.5 for one pod: allowed with a reason, or denied with upstream's message. */
export async function checkPodBudget(deps: ValidatePodDeps, pod: Pod, operation: SpendRequest['operation'], dryRun: boolean): Promise<AdmissionResult> {
  const exempt = podExemption(pod);
  if (exempt) return allowed(exempt);
  const ns = pod.metadata?.namespace ?? '';
  const pubName = relatedPubName(pod);
  const pub = pubName ? deps.pub(ns, pubName) : undefined;
  if (!pub || !pubName) return allowed('pod has no pub');
  const why = pubExemption(pub, pod.metadata?.name ?? '', operation, deps.gates.inPlacePodVerticalScaling);
  if (why) return allowed(why);
  if (!deps.spendPub) throw new AdmissionDeniedError('this webhook cannot write PodUnavailableBudget status (no API client)', 500);
  const r = await deps.spendPub({ namespace: ns, pubName, podName: pod.metadata?.name ?? '', operation, dryRun });
  return r.allowed ? allowed(r.reason) : denied(r.message);
}

export function validatePodRoute(deps: ValidatePodDeps): WebhookRoute {
  return {
    path: '/validate-pod',
    name: 'validate-pod',
    handler: async (req) => {
      if (!deps.gates.podWebhook) return allowed();
      if (req.operation === 'DELETE' && (req.oldObject === undefined || req.oldObject === null)) return allowed();
      if (req.resource && req.resource.resource !== 'pods') return allowed();
      // The typed decoding of what the steps read first: 400 naming the field, as upstream's decoder answers.
      if (req.object !== undefined && req.object !== null) decodeObject(req.object, req.subResource === 'eviction' ? EvictionDecoder : PodDecoder, 'object');
      if (req.oldObject !== undefined && req.oldObject !== null) decodeObject(req.oldObject, PodDecoder, 'oldObject');
      if (req.operation !== 'UPDATE' && deps.workloadSpread) await deps.workloadSpread(req);
      const what = classifyBudgetRequest(req, deps.gates);
      if (what.kind === 'skip') return allowed();
      if (what.kind === 'check') return checkPodBudget(deps, what.pod, what.operation, what.dryRun);
      let pod: Pod | undefined;
      try {
        pod = await deps.fetchPod(what.namespace, what.name);
      } catch (err) {
        throw new AdmissionDeniedError(err instanceof Error ? err.message : String(err), 400);
      }
      if (!pod) throw new AdmissionDeniedError(`pods "${what.name}" not found`, 400);
      return checkPodBudget(deps, pod, 'EVICT', what.dryRun);
    },
  };
}
