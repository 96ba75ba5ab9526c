// The writing steps of a SidecarSet reconcile: the hot-upgrade flip, and the next batch of in-place updates (the
// pods' Upgradable condition, the in-place resize through pods/resize, the pre-pull hold, the pod update itself).
import type { Logger } from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { flipHotUpgrade, needsFlip } from './hot-upgrade-flip.js';
import { matchingSetNames } from './matched-pods.js';
import type { PodChange } from './pod-change.js';
import { isPodSidecarUpdated, setHash } from './pod-state.js';
import { upgradePod } from './pod-upgrade.js';
import { patchPodStatus, updatePod } from './pod-writes.js';
import { prePullStep } from './prepull-step.js';
import { asPod, asSidecarSet, at, forEachLimit, nowOf, podKey, POD_WRITE_CONCURRENCY, type ReconcileDeps } from './reconcile-deps.js';
import { resizePatch } from './resize-state.js';
import { resizePod } from './resize-writes.js';
import { upgradableConditionPatch } from './upgradable-condition.js';
import { planUpgrade } from './upgrade-plan.js';

/** The writing steps over one SidecarSet controller's deps. */
export function upgradeSteps(deps: ReconcileDeps) {
  const { rest, clock, expectations } = deps;
  const now = nowOf(deps);

  /** Resolves how many pods were flipped. */
  const flip = async (set: SidecarSet, pods: readonly Pod[]): Promise<number> => {
    let flipped = 0;
    await forEachLimit(pods.filter((p) => needsFlip(set, p)), POD_WRITE_CONCURRENCY, async (pod) => {
      try {
        const written = await updatePod(rest, clock, at(pod), (fresh) => needsFlip(set, fresh) && flipHotUpgrade(set, fresh, now()).length > 0, pod);
        if (written) {
          flipped++;
          deps.events.event(asPod(written), 'Normal', 'ResetContainerSucceed', 'reset sidecar container image empty successfully');
        }
      } catch (err) {
        deps.events.event(asPod(pod), 'Warning', 'ResetContainerFailed', `reset sidecar container image empty failed: ${(err as Error).message}`);
        throw err;
      }
    });
    return flipped;
  };

  const markUpgradable = async (set: SidecarSet, pod: Pod, upgradable: boolean) => {
    const patch = upgradableConditionPatch(pod, set.metadata?.name ?? '', upgradable, now());
    if (patch) await patchPodStatus(rest, at(pod), patch);
  };

  /**
   * Resizes the pod's sidecars when its change calls for it. Resolves the pod to update next (the resize answer, or
   * `pod`), or undefined when the pod is not to be updated this round.
   */
  const resize = async (set: SidecarSet, pod: Pod, change: PodChange): Promise<Pod | undefined> => {
    if (change.kind !== 'resize') return pod;
    const patch = resizePatch(set, pod, change.containers);
    if (!patch) return pod; // already resized (an earlier round's bookkeeping write failed)
    const name = set.metadata?.name ?? '';
    const outcome = await resizePod(rest, at(pod), patch);
    switch (outcome.kind) {
      case 'resized':
        deps.events.event(asPod(pod), 'Normal', 'SidecarResized', `resized sidecar container(s) ${change.containers.join(', ')} of SidecarSet ${name} in place`);
        return outcome.pod;
      case 'gone':
        return undefined;
      case 'unsupported':
        deps.refusals.markUnsupported(name, setHash(set), outcome.message);
        return undefined;
      case 'refused':
        deps.refusals.refuse(name, setHash(set), podKey(pod), outcome.message);
        deps.events.event(asPod(pod), 'Warning', 'SidecarResizeRefused', `resize of the sidecars of SidecarSet ${name} refused, not retried for this revision: ${outcome.message}`);
        return undefined;
    }
  };

  const { prePulled, releaseSecrets } = prePullStep(deps);

  /** The next batch: whether a resize was refused (the conditions are to be written again) or pods wait for a pull. */
  const upgrade = async (set: SidecarSet, pods: readonly Pod[], change: (pod: Pod) => PodChange, log: Logger): Promise<{ refused: boolean; holding: boolean }> => {
    const plan = planUpgrade(set, pods, change);
    log.debug({ matched: pods.length, upgrade: plan.upgrade.length, notUpgradable: plan.notUpgradable.length }, 'update plan');
    await forEachLimit(plan.notUpgradable, POD_WRITE_CONCURRENCY, (pod) => markUpgradable(set, pod, false));
    if (plan.notUpgradable.length > 0) {
      deps.events.event(asSidecarSet(set), 'Normal', 'NotUpgradablePods',
        `SidecarSet in-place update detected ${plan.notUpgradable.length} not upgradable pod(s) in this round, will skip them.`);
    }
    const name = set.metadata?.name ?? '';
    const allSets = deps.sidecarSets.list();
    const pulled = await prePulled(set, plan.upgrade, plan.upcoming, log);
    const go = pulled.go;
    let holding = pulled.holding;
    let refused = false;
    await forEachLimit(go, POD_WRITE_CONCURRENCY, async (pod) => {
      // The pod's PodDisruptionBudget first: no budget left, the pod waits for a later round (holding polls again).
      const budget = await deps.pdb?.admit(set, pod);
      if (budget && !budget.go) { holding = true; log.info({ pod: podKey(pod), reason: budget.reason }, 'waiting for the PodDisruptionBudget'); return; }
      const c = change(pod);
      const base = await resize(set, pod, c);
      if (!base) {
        refused = true;
        return;
      }
      // A pod another process (or an earlier run of this one) already moved to this hash is left as it is; a stale
      // cached copy finds out through the conflict and the GET that follows.
      await updatePod(rest, clock, at(pod), (fresh) => {
        if (isPodSidecarUpdated(set, fresh)) return false;
        upgradePod(set, fresh, { now: now(), injectedList: (p) => matchingSetNames(p, allSets, deps.namespaceLabels), resized: c.kind === 'resize' });
        return true;
      }, base);
      expectations.expectUpdated(name, setHash(set), podKey(pod));
      deps.prePullWaits.done(name, podKey(pod));
      await markUpgradable(set, pod, true);
    });
    if (go.length > 0) log.info({ count: go.length, pods: go.slice(0, 20).map(podKey) }, 'updated sidecars in place');
    return { refused, holding };
  };

  return { flip, upgrade, releaseSecrets };
}
