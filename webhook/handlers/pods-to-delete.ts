// The live pod reads behind CloneSet podsToDelete validation (review N-M2). Upstream reads these pods from its
// informer cache; the webhook has no pod cache (it would hold every pod of the cluster), so each newly named pod is a
// GET. One review must not become an unbounded stream of GETs under the webhook's identity that outlives the
// request: the names checked per review are capped, a few are read at once, and nothing new is sent past a deadline.
import type { Pod } from '../../shared/api/meta.js';
import { AdmissionDeniedError, type Violation } from '../../shared/errors.js';

/** New names one review may add to podsToDelete (each costs a GET). A documented kruise-ts bound; upstream has none. */
export const MAX_NEW_PODS_TO_DELETE = 1000;
/** GETs of one review in flight at once. */
export const POD_READS_IN_FLIGHT = 8;
/** Past this, the review fails (the apiserver gives up on the webhook at 10 s anyway) and no further GET is sent. */
export const POD_READS_DEADLINE_MS = 8000;

/** apimachinery's field.TooMany form, counting the names this request adds. */
export function tooManyNewNames(added: number): Violation[] {
  return added > MAX_NEW_PODS_TO_DELETE
    ? [{ field: 'spec.scaleStrategy.podsToDelete', type: 'Too many', value: added, detail: `must add at most ${MAX_NEW_PODS_TO_DELETE} new names in one request` }]
    : [];
}

export interface PodReadOptions {
  inFlight?: number;
  deadlineMs?: number;
  /** Aborts the reads early, e.g. when the request's connection closes. */
  signal?: AbortSignal;
}

/**
 * Reads `names` in `namespace`, at most `inFlight` at once. Rejects with a 500 AdmissionDeniedError at the deadline
 * (or when `signal` aborts); from then on no GET is started, and at most `inFlight` are still pending.
 */
export async function readPods(fetchPod: (ns: string, name: string) => Promise<Pod | undefined>, namespace: string, names: readonly string[],
  o: PodReadOptions = {}): Promise<Map<string, Pod | undefined>> {
  const deadlineMs = o.deadlineMs ?? POD_READS_DEADLINE_MS;
  const stop = o.signal ? AbortSignal.any([o.signal, AbortSignal.timeout(deadlineMs)]) : AbortSignal.timeout(deadlineMs);
  const found = new Map<string, Pod | undefined>();
  let next = 0;
  const worker = async () => {
    while (next < names.length && !stop.aborted) {
      const n = names[next++]!;
      found.set(n, await fetchPod(namespace, n));
    }
  };
  const stopped = new Promise<never>((_, reject) => {
    const fail = () => reject(new AdmissionDeniedError(
      `spec.scaleStrategy.podsToDelete: checking ${names.length} pods did not finish within ${deadlineMs} ms (${found.size} read); retry with fewer names`, 500));
    if (stop.aborted) fail(); else stop.addEventListener('abort', fail, { once: true });
  });
  stopped.catch(() => {});
  await Promise.race([Promise.all(Array.from({ length: Math.min(o.inFlight ?? POD_READS_IN_FLIGHT, names.length) }, worker)), stopped]);
  return found;
}
