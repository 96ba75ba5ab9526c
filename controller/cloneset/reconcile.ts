// One CloneSet reconcile (spec/cloneset.md §3.2): expectations → owned pods (release the ones the selector no longer
// matches) and PVCs (cleaned up first with disablePVCReuse) → revisions → Scale, or Update when Scale changed nothing → status → history → podsToDelete clean-up.
import type { CloneSet, CloneSetCondition } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { isActive } from '../../shared/domain/cloneset/pod-predicates.js';
import { applyProgressing } from '../../shared/domain/cloneset/progressing.js';
import { computeStatus } from '../../shared/domain/cloneset/status.js';
import { resolveStrategy } from '../../shared/domain/cloneset/strategy-values.js';
import type { CloneSetRevision } from '../../shared/domain/cloneset/revision.js';
import type { Claim } from '../../shared/domain/cloneset/volume-claims.js';
import { compileLabelSelector, type LabelMatcher } from '../../shared/domain/label-selector.js';
import type { Cache } from '../../shared/kube/informer.js';
import { resources } from '../../shared/kube/resources.js';
import { isNotFound } from '../../shared/kube/rest.js';
import type { ReconcileFn } from '../../shared/reconcile/types.js';
import { yieldToLoop } from '../../shared/reconcile/yield.js';
import { cleanupClaims } from './claim-sync.js';
import { at, FIELD_MANAGER, type CloneSetDeps, type Round } from './context.js';
import { EXPECTATION_TIMEOUT_MS } from './expectations.js';
import { ownedRevisions, syncRevisions, truncateHistory } from './revisions.js';
import { releasePreDownload, syncPreDownload } from './predownload-sync.js';
import { syncScale } from './scale-sync.js';
import { writeStatus } from './status-write.js';
import { syncUpdate } from './update-sync.js';

export interface ReconcileDeps extends CloneSetDeps {
  cloneSets: Cache<CloneSet>;
  revisions: Cache<CloneSetRevision>;
  /** Pods with an ownerReference to this CloneSet UID (any, controller or not). */
  podsOwnedBy(uid: string): Pod[];
  /** PVCs with an ownerReference to this CloneSet UID. */
  claimsOwnedBy(uid: string): Claim[];
}

const controllerUid = (pod: Pod) => pod.metadata?.ownerReferences?.find((r) => r.controller)?.uid;

/** Pods we control whose labels no longer match: released (our ownerReference removed), as ClaimPods does. */
async function release(deps: ReconcileDeps, cs: CloneSet, pods: Pod[], selects: LabelMatcher): Promise<Pod[]> {
  const kept: Pod[] = [];
  for (const pod of pods) {
    if (controllerUid(pod) !== cs.metadata?.uid) continue;
    if (selects(pod.metadata?.labels ?? {})) { kept.push(pod); continue; }
    if (cs.metadata?.deletionTimestamp) continue;
    try {
      await deps.rest.patch(resources.pods, at(pod), 'strategic', {
        metadata: { resourceVersion: pod.metadata?.resourceVersion, ownerReferences: [{ $patch: 'delete', uid: cs.metadata?.uid }] },
      }, { fieldManager: FIELD_MANAGER });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return kept;
}

export function cloneSetReconciler(deps: ReconcileDeps): ReconcileFn {
  return async (key) => {
    const cs = deps.cloneSets.get(key);
    if (!cs) {
      deps.scaleExpectations.delete(key);
      if (deps.preDownload) await releasePreDownload({ deps }, deps.preDownload, key.slice(key.indexOf('/') + 1));
      return;
    }
    const waited = deps.scaleExpectations.waitedMs(key);
    if (waited !== undefined) {
      // Upstream stops requeueing after the timeout (the leak is reported); the next pod event wakes it anyway.
      return waited < EXPECTATION_TIMEOUT_MS ? { requeueAfterMs: EXPECTATION_TIMEOUT_MS - waited } : undefined;
    }
    let selects: LabelMatcher;
    try {
      selects = compileLabelSelector(cs.spec?.selector ?? {});
    } catch {
      return;
    }
    const owned = deps.podsOwnedBy(cs.metadata?.uid ?? '');
    const active = owned.filter(isActive);
    const pods = await release(deps, cs, active, selects);
    // The steps below each walk every owned pod: a turn of the event loop between them (shared/reconcile/yield.ts).
    await yieldToLoop();
    const revisions = await syncRevisions(deps.rest, cs, ownedRevisions(cs, deps.revisions, selects));
    const nowMs = deps.clock.now();
    if (pods.some((p) => deps.rvExpectations.isStale(p.metadata?.uid, p.metadata?.resourceVersion))) return { requeueAfterMs: 1000 };

    const round: Round = {
      deps, key, cs, pods, revisions, strategy: resolveStrategy(cs), nowMs,
      claims: deps.claimsOwnedBy(cs.metadata?.uid ?? '').filter((c) => !c.metadata?.deletionTimestamp),
      podsToDelete: new Set(cs.spec?.scaleStrategy?.podsToDelete ?? []),
    };
    if (cs.spec?.scaleStrategy?.disablePVCReuse && round.claims.length > 0) {
      round.claims = await cleanupClaims(round, active, owned.filter((p) => !isActive(p)));
    }
    // Step 10: pre-download the new images; a failure is logged, as upstream, and never holds the update.
    if (deps.preDownload && !cs.metadata?.deletionTimestamp) {
      await syncPreDownload(round, deps.preDownload).catch((err: unknown) => deps.log.warn({ cloneSet: key, err }, 'image pre-download failed'));
    }
    const failures: CloneSetCondition[] = [];
    let syncError: Error | undefined;
    if (!cs.metadata?.deletionTimestamp) {
      const scaled = await syncScale(round, owned);
      if (scaled.error) failures.push({ type: 'FailedScale', status: 'True', lastTransitionTime: new Date(nowMs).toISOString(), message: scaled.error.message });
      if (!scaled.changed) {
        const err = await syncUpdate(round);
        if (err) failures.push({ type: 'FailedUpdate', status: 'True', lastTransitionTime: new Date(nowMs).toISOString(), message: err.message });
        syncError = err;
      }
      syncError ??= scaled.error;
    }

    await yieldToLoop();
    const status = computeStatus({ cs, pods, updateRevision: revisions.update.metadata.name, currentRevision: revisions.current.metadata.name,
      collisionCount: revisions.collisionCount, failures, nowMs });
    const progressAfterMs = applyProgressing(cs, status, nowMs);
    await writeStatus(deps.rest, cs, status);
    await truncateHistory(deps.rest, cs, revisions, pods);
    await cleanPodsToDelete(deps, cs, pods);
    if (syncError) throw syncError;
    const m = cs.spec?.minReadySeconds ?? 0;
    if (m > 0 && status.availableReplicas !== status.readyReplicas) round.requeueAfterMs = Math.min(round.requeueAfterMs ?? Infinity, m * 1000);
    if (progressAfterMs !== undefined) round.requeueAfterMs = Math.min(round.requeueAfterMs ?? Infinity, progressAfterMs);
    return round.requeueAfterMs !== undefined ? { requeueAfterMs: round.requeueAfterMs } : undefined;
  };
}

/** Names in podsToDelete that are not active owned pods are dropped from the spec (§3.2 step 14). */
async function cleanPodsToDelete(deps: ReconcileDeps, cs: CloneSet, pods: Pod[]): Promise<void> {
  const names = cs.spec?.scaleStrategy?.podsToDelete;
  if (!names?.length) return;
  const live = new Set(pods.map((p) => p.metadata?.name));
  const keep = names.filter((n) => live.has(n));
  if (keep.length === names.length) return;
  try {
    await deps.rest.patch(resources.cloneSets, { namespace: cs.metadata?.namespace ?? '', name: cs.metadata?.name ?? '' }, 'merge',
      { metadata: { resourceVersion: cs.metadata?.resourceVersion }, spec: { scaleStrategy: { podsToDelete: keep } } }, { fieldManager: FIELD_MANAGER });
  } catch (err) {
    if (!isNotFound(err) && (err as { code?: number }).code !== 409) throw err;
  }
}
