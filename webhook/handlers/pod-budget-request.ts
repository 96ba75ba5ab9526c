// Which pod the /validate-pod budget check looks at, as what operation, and whether it is a dry run (spec/
// availability-guards.md §3.3). Pure over the review; the eviction's pod is read by the caller.
import type { Pod } from '../../shared/api/meta.js';
import type { PubOperation } from '../../shared/api/pod-unavailable-budget.js';
import { canResizeInPlace, isUnavailableChange } from '../../shared/domain/pub/operations.js';
import { relatedPubName } from '../../shared/domain/pub/budget.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import type { AdmissionRequest } from '../admission/review.js';
import { decodeObject, PodDecoder } from '../admission/decode-object.js';

export interface BudgetGates { deleteGate: boolean; updateGate: boolean }

export type BudgetRequest =
  | { kind: 'skip'; reason: string }
  /** The pod is in the request (old object for UPDATE and DELETE). */
  | { kind: 'check'; pod: Pod; operation: PubOperation; dryRun: boolean }
  /** pods/eviction: the pod must be read by namespace and name. */
  | { kind: 'evict'; namespace: string; name: string; dryRun: boolean };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** DeleteOptions/UpdateOptions.dryRun: any value (e.g. ["All"]) is a dry run. */
function optionsDryRun(options: unknown): boolean {
  const d = isObject(options) ? options.dryRun : undefined;
  return Array.isArray(d) && d.length > 0;
}

export function classifyBudgetRequest(req: AdmissionRequest, gates: BudgetGates): BudgetRequest {
  const sub = req.subResource ?? '';
  switch (req.operation) {
    case 'UPDATE': {
      if (!gates.updateGate) return { kind: 'skip', reason: 'PodUnavailableBudgetUpdateGate is off' };
      // pods/resize carries the whole pod too: kruise-ts guards it as RESIZE (beyond upstream, docs/compatibility.md).
      if (sub !== '' && sub !== 'resize') return { kind: 'skip', reason: `subresource ${sub}` };
      const newPod = decodeObject<Pod>(req.object, PodDecoder);
      if (!newPod || !relatedPubName(newPod)) return { kind: 'skip', reason: 'pod has no related pub' };
      const oldPod = decodeObject<Pod>(req.oldObject, PodDecoder, 'oldObject');
      if (!oldPod) throw new AdmissionDeniedError('request.oldObject must be a JSON object on UPDATE', 400);
      if (!isUnavailableChange(oldPod, newPod)) return { kind: 'skip', reason: 'change does not make the pod unavailable' };
      const operation = sub === 'resize' || canResizeInPlace(oldPod, newPod) ? 'RESIZE' : 'UPDATE';
      return { kind: 'check', pod: oldPod, operation, dryRun: req.dryRun === true || optionsDryRun(req.options) };
    }
    case 'DELETE': {
      if (!gates.deleteGate) return { kind: 'skip', reason: 'PodUnavailableBudgetDeleteGate is off' };
      if (sub !== '') return { kind: 'skip', reason: `subresource ${sub}` };
      const pod = decodeObject<Pod>(req.oldObject, PodDecoder, 'oldObject');
      if (!pod) return { kind: 'skip', reason: 'no oldObject' };
      return { kind: 'check', pod, operation: 'DELETE', dryRun: req.dryRun === true || optionsDryRun(req.options) };
    }
    case 'CREATE': {
      if (sub !== 'eviction') return { kind: 'skip', reason: 'not an eviction' };
      if (!gates.deleteGate) return { kind: 'skip', reason: 'PodUnavailableBudgetDeleteGate is off' };
      const eviction = isObject(req.object) ? req.object : {};
      return { kind: 'evict', namespace: req.namespace ?? '', name: req.name ?? '', dryRun: req.dryRun === true || optionsDryRun(eviction.deleteOptions) };
    }
    default:
      return { kind: 'skip', reason: `operation ${req.operation}` };
  }
}
