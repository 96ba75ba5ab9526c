// One SidecarSet reconcile, in upstream v1.8.2's order (spec/daemon-and-controllers.md §6.3): matched pods →
// revision → status → expectations → hot-upgrade flips → stop conditions → next batch of in-place upgrades. The
// steps: reconcile-pods.ts (reads), reconcile-upgrade.ts (writes to pods), writeStatus here.
import type { Logger } from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { resources } from '../../shared/kube/resources.js';
import { isNotFound } from '../../shared/kube/rest.js';
import type { ReconcileFn } from '../../shared/reconcile/types.js';
import { hasHotUpgradeContainers } from './hot-upgrade-flip.js';
import { asSidecarSet, EXPECTATIONS_RETRY_MS, nowOf, PREPULL_POLL_MS, type ReconcileDeps } from './reconcile-deps.js';
import { awaitedPods, changes, conditionInputs, gatherPods } from './reconcile-pods.js';
import { upgradeSteps } from './reconcile-upgrade.js';
import { changedConditions, conditionsDiffer, conditionsPatch, readConditions, resizeConditions } from './resize-conditions.js';
import { ownedRevisions } from './revision-history.js';
import { FIELD_MANAGER, syncRevisions } from './revision-sync.js';
import { computeStatus, statusChanged } from './status.js';

export { EXPECTATIONS_RETRY_MS, POD_WRITE_CONCURRENCY, PREPULL_POLL_MS, type ReconcileDeps } from './reconcile-deps.js';

/**
 * Revisions, status and conditions of the SidecarSet as its pods are now, written when they changed (with a Warning
 * event per newly false condition). Resolves the SidecarSet with that status and how its pods catch up, or undefined
 * when it is gone.
 */
async function writeStatus(deps: ReconcileDeps, cached: SidecarSet, pods: Pod[], log: Logger) {
  const { rest } = deps;
  const name = cached.metadata?.name ?? '';
  const revisions = ownedRevisions(deps.revisions.list(), cached);
  const latest = await syncRevisions({ rest, log, namespace: deps.namespace }, cached, revisions, pods);
  const change = changes(deps, cached, revisions);
  const counted = computeStatus(cached, pods, latest.revision.metadata?.name ?? '', latest.collisionCount);
  const previous = readConditions(cached);
  const conditions = resizeConditions(conditionInputs(deps, cached, pods, change), previous, nowOf(deps)());
  try {
    if (statusChanged(cached.status, counted)) {
      await rest.patch(resources.sidecarSets, { name, subresource: 'status' }, 'merge', { status: counted }, { fieldManager: FIELD_MANAGER });
    }
    // OpenKruise's SidecarSetStatus has no conditions (its strict decoders refuse them): they live in an annotation.
    if (conditionsDiffer(previous, conditions)) {
      await rest.patch(resources.sidecarSets, { name }, 'merge', conditionsPatch(conditions), { fieldManager: FIELD_MANAGER });
    }
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  for (const c of changedConditions(previous, conditions)) deps.events.event(asSidecarSet(cached), 'Warning', c.reason, c.message);
  const status = counted;
  return { set: { ...cached, status } as SidecarSet & { status: typeof status }, status, change };
}

export function sidecarSetReconciler(deps: ReconcileDeps): ReconcileFn {
  const { flip, upgrade, releaseSecrets, awaitedResizes, forgetSet } = upgradeSteps(deps);

  return async (name, { log }) => {
    const cached = deps.sidecarSets.get(name);
    if (!cached) {
      deps.expectations.deleteSet(name);
      forgetSet(name);
      await releaseSecrets(name);
      return;
    }
    const pods = gatherPods(deps, cached);
    const written = await writeStatus(deps, cached, pods, log);
    if (!written) return;
    const { set, status, change } = written;

    const waiting = [...awaitedPods(deps, set, pods), ...awaitedResizes(set, pods, change)];
    if (waiting.length > 0) {
      log.debug({ pods: waiting }, 'updated pods not yet in the cache; looking again shortly');
      return { requeueAfterMs: EXPECTATIONS_RETRY_MS };
    }
    // v1.9.0's order (spec/openkruise-v1.9.md §2.6): NotUpdate and paused stop before the hot-upgrade flip (#2011),
    // and a round that flipped a pod updates none (#2156): the flip's own pod event brings the next round.
    const strategy = set.spec?.updateStrategy ?? {};
    log.debug({ status }, 'status');
    if (strategy.type === 'NotUpdate') {
      await releaseSecrets(name);
      return;
    }
    if (strategy.paused) return;
    if (hasHotUpgradeContainers(set) && (await flip(set, pods)) > 0) return;
    if (status.updatedPods >= status.matchedPods) {
      await releaseSecrets(name);
      return;
    }
    const { refused, holding, resized, finished } = await upgrade(set, pods, change, log);
    // A refusal changes the conditions: the next reconcile writes them (and skips the refused pods). Resized pods get
    // their bookkeeping write in a later round, once kubelet applied the resize (its status write brings that round
    // on a real node; a node that reports no allocation writes nothing, so look again). That write is the pod's last
    // change (kubelet has nothing left to report), so no pod event brings the round that counts it: look again too.
    if (refused || resized > 0 || finished > 0) return { requeueAfterMs: EXPECTATIONS_RETRY_MS };
    if (holding) return { requeueAfterMs: PREPULL_POLL_MS };
  };
}
