// Executes one Scale plan (spec/cloneset.md §3.5): creates pods (each after its PVCs) in slow-start batches (1, 2,
// 4, … concurrent creates, stopping after a batch with a failure), or deletes the chosen pods with their PVCs, or
// moves them to/from PreparingDelete (lifecycle hooks, §3.9); each create/delete under a scale expectation, with
// upstream's events. Resolves whether anything changed.
import { CloneSetInstanceIdLabel } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { instanceIdSource } from '../../shared/domain/cloneset/names.js';
import { newPod } from '../../shared/domain/cloneset/new-pod.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { planScale, type ScalePlan } from '../../shared/domain/cloneset/scale.js';
import { reusableIds } from '../../shared/domain/cloneset/volume-claims.js';
import { resources } from '../../shared/kube/resources.js';
import { isNotFound } from '../../shared/kube/rest.js';
import { createClaims, deleteClaimsOf } from './claim-sync.js';
import { requeueAfter, subject, type Round } from './context.js';
import { writeLifecycle } from './lifecycle-write.js';

export async function syncScale(round: Round, allOwned: readonly Pod[]): Promise<{ changed: boolean; error?: Error }> {
  const { cs, deps, revisions } = round;
  const plan = planScale({
    pods: round.pods, currentRevision: revisions.current.metadata.name, updateRevision: revisions.update.metadata.name,
    strategy: round.strategy, podsToDelete: round.podsToDelete, nowMs: round.nowMs, lifecycle: cs.spec?.lifecycle,
  });
  if (plan.kind === 'create') {
    if (plan.limited) deps.events.event(subject(cs), 'Warning', 'ScaleUpLimited', `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${plan.fromCurrent + plan.fromUpdate}`);
    // One round sends at most MAX_CREATES_PER_ROUND; the next round (requeued below, or woken by the pods' events)
    // recomputes the diff and sends the rest. Current-revision pods first, as upstream's sorted split does.
    const total = Math.min(plan.fromCurrent + plan.fromUpdate, createsPerRound(cs.spec?.volumeClaimTemplates));
    if (total === 0) return { changed: false };
    const fromCurrent = Math.min(plan.fromCurrent, total);
    // Ids of PVCs whose pod is gone first (§2.5), then fresh ones unlike any owned pod's or PVC's; drawn per batch.
    const taken = new Set([...allOwned, ...round.claims].map((o) => o.metadata?.labels?.[CloneSetInstanceIdLabel]).filter((x): x is string => !!x));
    const nextIds = instanceIdSource(reusableIds(round.pods, round.claims), taken, deps.random);
    let built = 0;
    const nextPods = (n: number) => nextIds(n).map((id) => newPod(cs, built++ < fromCurrent ? revisions.current : revisions.update, id, round.nowMs));
    let error: Error | undefined;
    try {
      error = await createSlowStart(round, total, nextPods);
    } catch (err) {
      error = err as Error; // InstanceIdsExhaustedError: a FailedScale condition saying why, never a loop
    }
    if (!error && total < plan.fromCurrent + plan.fromUpdate) requeueAfter(round, CAPPED_ROUND_REQUEUE_MS);
    return { changed: true, ...(error ? { error } : {}) };
  }
  if (plan.kind === 'delete') return deletePods(round, plan);
  if (plan.kind === 'restore') {
    let changed = false;
    for (const pod of plan.pods) changed = (await writeLifecycle(round, pod, { state: 'PreparingNormal', markPodNotReady: false })) || changed;
    return { changed };
  }
  return { changed: false };
}

/**
 * Creates in flight at once within a slow-start batch. Upstream's batches reach 512 pods for a 1,000-replica
 * CloneSet, paced by client-go's client-side rate limit; this client has none, and 512 creates at once (each a new
 * TLS connection, each through the admission webhooks) starved the controller's own lease renewals on a loaded machine.
 */
export const CREATES_IN_FLIGHT = 32;

/**
 * Creations (pods and their PVCs) one reconcile round sends at most (upstream: the whole scale-up diff). A
 * `replicas: 1000000` typo then costs one round's worth of ids, objects and requests, not a million of each at once.
 */
export const MAX_CREATES_PER_ROUND = 500;
/**
 * Pods one round creates: MAX_CREATES_PER_ROUND objects, counting each pod with the PVCs of its claim templates (a pod
 * with ten claim templates is eleven creates), at least one pod.
 */
export function createsPerRound(claimTemplates: readonly unknown[] | undefined): number {
  const perPod = 1 + (Array.isArray(claimTemplates) ? claimTemplates.length : 0);
  return Math.max(1, Math.floor(MAX_CREATES_PER_ROUND / perPod));
}

/** A capped round that created everything it sent comes back this soon for the rest (pod events usually come first). */
const CAPPED_ROUND_REQUEUE_MS = 1000;

/** Hooked pods move to PreparingDelete (markPodNotReady holds them not-ready first); the others go with their PVCs. */
async function deletePods(round: Round, plan: Extract<ScalePlan, { kind: 'delete' }>): Promise<{ changed: boolean; error?: Error }> {
  const { cs, deps } = round;
  let changed = false;
  try {
    for (const pod of plan.prepare) {
      changed = (await writeLifecycle(round, pod, { state: 'PreparingDelete', markPodNotReady: !!cs.spec?.lifecycle?.preDelete?.markPodNotReady })) || changed;
    }
  } catch (err) {
    return { changed, error: err as Error };
  }
  for (const pod of plan.pods) {
    const name = pod.metadata?.name ?? '';
    deps.scaleExpectations.expect(round.key, name);
    try {
      await deps.rest.delete(resources.pods, { namespace: pod.metadata?.namespace ?? '', name }, { uid: pod.metadata?.uid });
      changed = true;
      deps.events.event(subject(cs), 'Normal', 'SuccessfulDelete', `succeed to delete pod ${name}`);
    } catch (err) {
      deps.scaleExpectations.observe(round.key, name);
      if (isNotFound(err)) continue;
      deps.events.event(subject(cs), 'Warning', 'FailedDelete', `failed to delete pod ${name}: ${(err as Error).message}`);
      return { changed, error: err as Error };
    }
    try {
      await deleteClaimsOf(round, pod);
    } catch (err) {
      return { changed, error: err as Error };
    }
  }
  return { changed };
}

/**
 * Slow-start batches of 1, 2, 4, … pods, each built only when its batch is sent (`nextPods(n)`), stopping after a
 * batch with a failure: a create that keeps failing (a quota) costs one pod object and one request.
 */
async function createSlowStart(round: Round, count: number, nextPods: (n: number) => Pod[]): Promise<Error | undefined> {
  const { deps, cs } = round;
  const existing = new Set(round.claims.map((c) => c.metadata?.name ?? ''));
  let next = 0;
  for (let batch = 1; next < count; batch *= 2) {
    const chunk = nextPods(Math.min(batch, count - next));
    next += chunk.length;
    let failed: Error | undefined;
    await forEachLimit(chunk, CREATES_IN_FLIGHT, async (pod) => {
      const name = pod.metadata?.name ?? '';
      try {
        await createClaims(round, pod, existing);
      } catch (err) {
        failed ??= err as Error;
        return;
      }
      deps.scaleExpectations.expect(round.key, name);
      try {
        await deps.rest.create(resources.pods, pod);
        deps.events.event(subject(cs), 'Normal', 'SuccessfulCreate', `succeed to create pod ${name}`);
      } catch (err) {
        deps.scaleExpectations.observe(round.key, name);
        deps.events.event(subject(cs), 'Warning', 'FailedCreate', `failed to create pod: ${(err as Error).message}, pod: ${JSON.stringify(pod)}`);
        failed ??= err as Error;
      }
    });
    if (failed) {
      // Later batches were never built nor sent: nothing to expect for them.
      return failed;
    }
  }
  return undefined;
}
