// One SidecarSet reconcile, in upstream v1.8.2's order (spec/daemon-and-controllers.md §6.3): matched pods →
// revision → status → expectations → hot-upgrade flips → stop conditions → next batch of in-place upgrades.
import type { Logger } from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import type { FreshView } from '../../shared/kube/fresh-view.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import type { Clock } from '../../shared/clock.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import type { Cache } from '../../shared/kube/informer.js';
import type { EventRecorder } from '../../shared/kube/event-recorder.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';
import { isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import { TerminalError, type ReconcileFn } from '../../shared/reconcile/types.js';
import type { UpdateExpectations } from './expectations.js';
import { flipHotUpgrade, hasHotUpgradeContainers, needsFlip } from './hot-upgrade-flip.js';
import { podChange, type PodChange } from './pod-change.js';
import type { PrePullWaits } from './prepull-waits.js';
import type { SecretIO } from '../prepull/secrets.js';
import { prePullStep } from './prepull-step.js';
import { matchedPods, matchingSetNames, type NamespaceLabels } from './matched-pods.js';
import type { PodIndex } from './pod-index.js';
import { isPodSidecarUpdated, podSetHash, setHash, sidecarContainerNames } from './pod-state.js';
import { upgradePod } from './pod-upgrade.js';
import { patchPodStatus, updatePod } from './pod-writes.js';
import { ownedRevisions, type Revision } from './revision-history.js';
import { FIELD_MANAGER, syncRevisions } from './revision-sync.js';
import { changedConditions, conditionsDiffer, conditionsPatch, readConditions, resizeConditions, type ConditionInputs } from './resize-conditions.js';
import type { ResizeRefusals } from './resize-refusals.js';
import { infeasibleResize, isResizeApplied, resizePatch } from './resize-state.js';
import { resizePod } from './resize-writes.js';
import { diffLookup } from './sidecar-diff.js';
import { computeStatus, statusChanged } from './status.js';
import { upgradableConditionPatch } from './upgradable-condition.js';
import { planUpgrade } from './upgrade-plan.js';

export interface ReconcileDeps {
  rest: KubeRest;
  clock: Clock;
  log: Logger;
  events: EventRecorder;
  /** kruise-ts's namespace, where ControllerRevisions live. */
  namespace: string;
  sidecarSets: Cache<SidecarSet>;
  pods: Cache<Pod>;
  revisions: Cache<Revision>;
  namespaceLabels: NamespaceLabels;
  index: PodIndex;
  expectations: UpdateExpectations;
  refusals: ResizeRefusals;
  /** NodeImages, for pre-pull (prepull.ts); without them pre-pull is off. */
  nodeImages?: FreshView<NodeImage>;
  prePullWaits: PrePullWaits;
  /** Pull-secret copies for the daemon (controller/prepull/secrets.ts); without them pre-pull goes anonymously. */
  pullSecrets?: Omit<SecretIO, 'rest'>;
}

/** How often a batch held back for its pre-pull looks at its nodes again. */
export const PREPULL_POLL_MS = 2_000;

/** How long to wait for the cache to show pods this process just updated (upstream: 1 s). */
export const EXPECTATIONS_RETRY_MS = 1_000;

/**
 * Pod writes of one round in flight at once. Upstream writes them one after another; a batch of 1,000 pods (10% of
 * 10,000) then takes minutes. Which pods are written does not change, only how long the batch takes.
 */
export const POD_WRITE_CONCURRENCY = 16;

/** Runs `f` over `items` with at most `n` in flight; the first failure is rethrown once the rest settled. */
async function forEachLimit<T>(items: readonly T[], n: number, f: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!;
      try { await f(item); } catch (err) { failure ??= { err }; }
    }
  }));
  if (failure) throw failure.err;
}

const podKey = (pod: Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
const at = (pod: Pod) => ({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' });
const asSidecarSet = (set: SidecarSet) => ({ apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', metadata: set.metadata });
const asPod = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata });

export function sidecarSetReconciler(deps: ReconcileDeps): ReconcileFn {
  const { rest, clock, expectations } = deps;
  const now = () => new Date(clock.now());

  const gatherPods = (set: SidecarSet): Pod[] => {
    const candidates: Pod[] = [];
    for (const key of deps.index.podsOf(set.metadata?.name ?? '')) {
      const pod = deps.pods.get(key);
      if (pod) candidates.push(pod);
    }
    try {
      return matchedPods(set, candidates, deps.namespaceLabels);
    } catch (err) {
      if (err instanceof AdmissionDeniedError) throw new TerminalError(err.message, { cause: err });
      throw err;
    }
  };

  /** Expectations: observe every matched pod; pods that left the set are no longer awaited. */
  const awaitedPods = (set: SidecarSet, pods: readonly Pod[]): string[] => {
    const name = set.metadata?.name ?? '';
    const hash = setHash(set);
    const matched = new Set<string>();
    for (const pod of pods) {
      matched.add(podKey(pod));
      expectations.observe(name, hash, podKey(pod), podSetHash(pod, set));
    }
    for (const key of expectations.pending(name)) if (!matched.has(key)) expectations.forget(name, key);
    return expectations.unsatisfied(name, hash);
  };

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

  /** How each matched pod behind the SidecarSet catches up (pod-change.ts), from the SidecarSet's stored revisions. */
  const changes = (set: SidecarSet, revisions: readonly Revision[]): ((pod: Pod) => PodChange) => {
    const name = set.metadata?.name ?? '';
    const hash = setHash(set);
    const inputs = {
      diff: diffLookup(set, revisions),
      unsupported: deps.refusals.unsupported(name, hash),
      refused: (pod: Pod) => deps.refusals.refused(name, hash, podKey(pod)),
    };
    const memo = new Map<Pod, PodChange>();
    return (pod) => {
      let c = memo.get(pod);
      if (!c) memo.set(pod, (c = podChange(set, pod, inputs)));
      return c;
    };
  };

  /** What the SidecarSet's conditions say (resize-conditions.ts); announces newly Infeasible pods on the pod. */
  const conditionInputs = (set: SidecarSet, pods: readonly Pod[], change: (pod: Pod) => PodChange): ConditionInputs => {
    const name = set.metadata?.name ?? '';
    const hash = setHash(set);
    const names = sidecarContainerNames(set);
    const newPodsOnly: ConditionInputs['newPodsOnly'][number][] = [];
    const infeasible: ConditionInputs['infeasible'][number][] = [];
    for (const pod of pods) {
      if (!isPodSidecarUpdated(set, pod)) {
        const c = change(pod);
        if (c.kind === 'new-pods-only') newPodsOnly.push({ pod: podKey(pod), reason: c.reason });
        continue;
      }
      const message = isResizeApplied(pod, names) ? undefined : infeasibleResize(pod);
      if (!message) continue;
      infeasible.push({ pod: podKey(pod), message });
      if (deps.refusals.firstReport(name, hash, podKey(pod))) {
        deps.events.event(asPod(pod), 'Warning', 'SidecarResizeInfeasible', `the node cannot give the sidecars of SidecarSet ${name} their new resources: ${message}`);
      }
    }
    const refused = deps.refusals.refusedPods(name, hash).map(([pod, message]) => ({ pod, message }));
    return { newPodsOnly, infeasible, refused, unsupported: deps.refusals.unsupported(name, hash) };
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
    const { go, holding } = await prePulled(set, plan.upgrade, plan.upcoming, log);
    let refused = false;
    await forEachLimit(go, POD_WRITE_CONCURRENCY, async (pod) => {
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

  return async (name, { log }) => {
    const cached = deps.sidecarSets.get(name);
    if (!cached) {
      expectations.deleteSet(name);
      await releaseSecrets(name);
      return;
    }
    const pods = gatherPods(cached);
    const revisions = ownedRevisions(deps.revisions.list(), cached);
    const latest = await syncRevisions({ rest, log, namespace: deps.namespace }, cached, revisions, pods);
    const change = changes(cached, revisions);
    const counted = computeStatus(cached, pods, latest.revision.metadata?.name ?? '', latest.collisionCount);
    const previous = readConditions(cached);
    const conditions = resizeConditions(conditionInputs(cached, pods, change), previous, now());
    try {
      if (statusChanged(cached.status, counted)) {
        await rest.patch(resources.sidecarSets, { name, subresource: 'status' }, 'merge', { status: counted }, { fieldManager: FIELD_MANAGER });
      }
      if (conditionsDiffer(previous, conditions)) {
        await rest.patch(resources.sidecarSets, { name }, 'merge', conditionsPatch(conditions), { fieldManager: FIELD_MANAGER });
      }
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    for (const c of changedConditions(previous, conditions)) deps.events.event(asSidecarSet(cached), 'Warning', c.reason, c.message);
    const status = counted;
    const set: SidecarSet = { ...cached, status };

    const waiting = awaitedPods(set, pods);
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
    const { refused, holding } = await upgrade(set, pods, change, log);
    // A refusal changes the conditions: the next reconcile writes them (and skips the refused pods).
    if (refused) return { requeueAfterMs: EXPECTATIONS_RETRY_MS };
    if (holding) return { requeueAfterMs: PREPULL_POLL_MS };
  };
}
