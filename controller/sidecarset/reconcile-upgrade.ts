// The writing steps of a SidecarSet reconcile: the hot-upgrade flip, and the next batch of in-place updates (the
// pods' Upgradable condition, the in-place resize through pods/resize, the pre-pull hold, the pod update itself).
import type { Logger } from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { UpdateExpectations } from './expectations.js';
import { flipHotUpgrade, needsFlip } from './hot-upgrade-flip.js';
import { matchingSetNames } from './matched-pods.js';
import type { PodChange } from './pod-change.js';
import { isPodSidecarUpdated, setHash } from './pod-state.js';
import { restartsSidecars, upgradePod } from './pod-upgrade.js';
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
  /** Pods resized (kruise-ts) whose resized spec the cache has not shown yet; "updated" = seen resized. */
  const resizes = new UpdateExpectations();

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
   * Sends the pod's resize. Resolves whether it went through (the pod's bookkeeping write then waits for kubelet to
   * apply it: planUpgrade's `finish`), or false when the pod is gone or the resize was refused.
   */
  const resize = async (set: SidecarSet, pod: Pod, containers: readonly string[]): Promise<boolean> => {
    const patch = resizePatch(set, pod, containers);
    if (!patch) return true; // cannot happen from the plan (such pods are in `finish`), harmless if it did
    const name = set.metadata?.name ?? '';
    const outcome = await resizePod(rest, at(pod), patch);
    switch (outcome.kind) {
      case 'resized':
        resizes.expectUpdated(name, setHash(set), podKey(pod));
        return true;
      case 'gone':
        return false;
      case 'unsupported':
        deps.refusals.markUnsupported(name, setHash(set), outcome.message);
        return false;
      case 'refused':
        deps.refusals.refuse(name, setHash(set), podKey(pod), outcome.message);
        deps.events.event(asPod(pod), 'Warning', 'SidecarResizeRefused', `resize of the sidecars of SidecarSet ${name} refused, not retried for this revision: ${outcome.message}`);
        return false;
    }
  };

  /**
   * The pod write of an in-place update: images and hash annotations (pod-upgrade.ts), from the cached `pod` (a
   * conflict starts over from a GET). A pod another process (or an earlier run of this one) already moved to this hash
   * is left as it is.
   */
  const write = async (set: SidecarSet, pod: Pod, resized: boolean, allSets: readonly SidecarSet[]) => {
    const name = set.metadata?.name ?? '';
    await updatePod(rest, clock, at(pod), (fresh) => {
      if (isPodSidecarUpdated(set, fresh)) return false;
      upgradePod(set, fresh, { now: now(), injectedList: (p) => matchingSetNames(p, allSets, deps.namespaceLabels), resized });
      return true;
    }, pod);
    expectations.expectUpdated(name, setHash(set), podKey(pod));
    deps.prePullWaits.done(name, podKey(pod));
    await markUpgradable(set, pod, true);
  };

  const { prePulled, releaseSecrets } = prePullStep(deps);

  /**
   * Pods resized this process has not seen resized in its cache yet (kruise-ts): the next round waits for them, as for
   * the pods it updated (expectations.ts), or it would take them for pods still to resize.
   */
  const awaitedResizes = (set: SidecarSet, pods: readonly Pod[], change: (pod: Pod) => PodChange): string[] => {
    const name = set.metadata?.name ?? '';
    const hash = setHash(set);
    const pending = new Set(resizes.unsatisfied(name, hash));
    if (pending.size === 0) return [];
    const matched = new Set<string>();
    for (const pod of pods) {
      const key = podKey(pod);
      matched.add(key);
      if (!pending.has(key)) continue;
      const c = change(pod);
      const seen = isPodSidecarUpdated(set, pod) || c.kind !== 'resize' || resizePatch(set, pod, c.containers) === null;
      resizes.observe(name, hash, key, seen ? hash : '');
    }
    for (const key of pending) if (!matched.has(key)) resizes.forget(name, key);
    return resizes.unsatisfied(name, hash);
  };

  /** The next batch: whether a resize was refused (the conditions are to be written again) or pods wait for a pull. */
  const upgrade = async (set: SidecarSet, pods: readonly Pod[], change: (pod: Pod) => PodChange, log: Logger): Promise<{ refused: boolean; holding: boolean; resized: number; finished: number }> => {
    const plan = planUpgrade(set, pods, change);
    log.debug({ matched: pods.length, upgrade: plan.upgrade.length, finish: plan.finish.length, notUpgradable: plan.notUpgradable.length }, 'update plan');
    await forEachLimit(plan.notUpgradable, POD_WRITE_CONCURRENCY, (pod) => markUpgradable(set, pod, false));
    if (plan.notUpgradable.length > 0) {
      deps.events.event(asSidecarSet(set), 'Normal', 'NotUpgradablePods',
        `SidecarSet in-place update detected ${plan.notUpgradable.length} not upgradable pod(s) in this round, will skip them.`);
    }
    const allSets = deps.sidecarSets.list();
    // Resized in an earlier round and applied by kubelet: the bookkeeping write, from the cache (no GET, no conflict
    // with kubelet's status write, which the cache already shows).
    await forEachLimit(plan.finish, POD_WRITE_CONCURRENCY, (pod) => write(set, pod, true, allSets));
    const pulled = await prePulled(set, plan.upgrade, plan.upcoming, log);
    const go = pulled.go;
    let holding = pulled.holding;
    let refused = false;
    const resized: Pod[] = [];
    await forEachLimit(go, POD_WRITE_CONCURRENCY, async (pod) => {
      // A restart (an image change, native sidecars included: the pod stays Ready but the sidecar is down) takes the
      // pod's PodDisruptionBudget first; no budget left, the pod waits for a later round (holding polls again). A
      // resize alone restarts nothing and takes none.
      const c = change(pod);
      const budget = c.kind !== 'resize' || restartsSidecars(set, pod) ? await deps.pdb?.admit(set, pod) : undefined;
      if (budget && !budget.go) { holding = true; log.info({ pod: podKey(pod), reason: budget.reason }, 'waiting for the PodDisruptionBudget'); return; }
      if (c.kind !== 'resize') return write(set, pod, false, allSets);
      if (await resize(set, pod, c.containers)) resized.push(pod);
      else refused = true;
    });
    // One event per batch, not per pod: at 10,000 pods a per-pod event is a third of the rollout's requests.
    if (resized.length > 0) {
      const containers = [...new Set(resized.flatMap((p) => { const c = change(p); return c.kind === 'resize' ? c.containers : []; }))].sort();
      const names = resized.slice(0, 10).map(podKey).join(', ');
      deps.events.event(asSidecarSet(set), 'Normal', 'SidecarResized',
        `resizing sidecar container(s) ${containers.join(', ')} of ${resized.length} pod(s) in place: ${names}${resized.length > 10 ? ', …' : ''}`);
    }
    if (go.length + plan.finish.length > 0) {
      log.info({ count: go.length, resized: resized.length, finished: plan.finish.length, pods: go.slice(0, 20).map(podKey) }, 'updated sidecars in place');
    }
    return { refused, holding, resized: resized.length, finished: plan.finish.length };
  };

  const forgetSet = (name: string) => resizes.deleteSet(name);

  return { flip, upgrade, releaseSecrets, awaitedResizes, forgetSet };
}
