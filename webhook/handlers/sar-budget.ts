// A budget of SubjectAccessReviews per source address (review N-L3). The ResourceDistribution handler asks the
// apiserver one SAR per namespace and verb, speaking for the user the review names; the answers are cached per user,
// so a review forged directly at the webhook port with a fresh username each time misses the cache and costs up to
// 2 × MAX_CHECKED_NAMESPACES SARs under the webhook's identity. The budget is charged to the connection's peer, which
// a forger cannot choose, not to the claimed user, which they can: one source spends only its own budget, and the
// apiserver's own reviews (its source) are never refused for someone else's.
import { AdmissionDeniedError } from '../../shared/errors.js';
import type { CanWrite } from './write-access.js';

export interface SarBudgetOptions {
  /** Milliseconds, injected for tests. */
  now: () => number;
  /** SARs a source may start at once (the bucket's size); default 500, five reviews of 50 namespaces. */
  burst?: number;
  /** SARs per minute a source gets back; default 500. */
  perMinute?: number;
  /** Sources tracked at once; the least recently seen is forgotten first (it then starts with a full bucket). */
  maxSources?: number;
}

/**
 * Thrown when a source has spent its budget: the review is denied (403) with this message, the SAR never sent, and
 * nothing is logged above info (a flood of forged reviews must not become a flood of error lines).
 */
export class SarBudgetError extends AdmissionDeniedError {
  constructor(source: string) {
    super(`too many access checks from ${source}: the SubjectAccessReview budget of this source is spent; retry in a minute`, 403);
    this.name = 'SarBudgetError';
  }
}

/** `inner` behind a token bucket per source; calls without a source share the bucket of `unknown`. */
export function budgetedCanWrite(inner: CanWrite, o: SarBudgetOptions): CanWrite {
  const burst = o.burst ?? 500;
  const perMs = (o.perMinute ?? 500) / 60_000;
  const maxSources = o.maxSources ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (user, verb, resource, namespace, source = 'unknown') => {
    const now = o.now();
    const b = buckets.get(source) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + (now - b.at) * perMs);
    b.at = now;
    buckets.delete(source);
    buckets.set(source, b);
    while (buckets.size > maxSources) buckets.delete(buckets.keys().next().value as string);
    if (b.tokens < 1) return Promise.reject(new SarBudgetError(source));
    b.tokens -= 1;
    return inner(user, verb, resource, namespace, source);
  };
}
