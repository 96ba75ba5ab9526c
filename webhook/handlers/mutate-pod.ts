// /mutate-pod: SidecarSet injection (spec §2). The handler only gathers context and diffs; the decision is pure.
import type { Pod } from '../../shared/api/meta.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed, patched } from '../admission/response.js';
import { diffToPatch } from '../admission/patch.js';
import type { WebhookRoute } from '../admission/route.js';
import { PodDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, requestObject } from './common.js';

export interface MutatePodDeps<Ctx> {
  /**
   * FEATURE_GATES PodWebhook: off, every pod is admitted untouched. (Upstream leaves the path out of its webhook
   * configuration; answering allowed keeps a configuration that still names it from failing pod creation.)
   */
  enabled: boolean;
  /** Returns the mutated pod as a new object and never modifies its argument (the diff runs against it). */
  mutate: (pod: Pod, ctx: Ctx) => Pod;
  /** Gathers the injection context from the caches (no API calls on the request path). */
  context: (req: AdmissionRequest) => Ctx;
  /**
   * Steps upstream runs before SidecarSet injection (spec/availability-guards.md §17.1: WorkloadSpread placement);
   * a new pod or the same one, synchronously when nothing needs the API. Throwing fails the review.
   */
  beforeInjection?: (pod: Pod, req: AdmissionRequest) => Pod | Promise<Pod>;
  /** Runs on the mutated pod before the diff: the PUB annotation (related-pub.ts), which sees the labels as injection left them. */
  after?: (pod: Pod, req: AdmissionRequest) => Promise<Pod>;
}

/** Why a review is admitted untouched before any gathering (spec §2.2), or null to go on. */
export function podSkipReason(req: AdmissionRequest): string | null {
  if (req.subResource) return `subresource ${req.subResource}`;
  if (req.resource && req.resource.resource !== 'pods') return `resource ${req.resource.resource}`;
  // Injection is CREATE-only in practice (spec §9 note 1); the webhook configuration sends only CREATE anyway.
  if (req.operation !== 'CREATE') return `operation ${req.operation}`;
  return null;
}

export function mutatePodRoute<Ctx>(deps: MutatePodDeps<Ctx>): WebhookRoute {
  return {
    path: '/mutate-pod',
    name: 'mutate-pod',
    handler: async (req) => {
      if (!deps.enabled || podSkipReason(req) !== null) return allowed();
      decodeRequestObjects(req, PodDecoder);
      // Upstream's order (spec/availability-guards.md §17.1): WorkloadSpread placement, injection, then the PUB annotation.
      const original = requestObject<Pod>(req);
      const placed = deps.beforeInjection?.(original, req) ?? original;
      const mutated = deps.mutate(placed instanceof Promise ? await placed : placed, deps.context(req));
      return patched(diffToPatch(original, deps.after ? await deps.after(mutated, req) : mutated));
    },
  };
}
