// One Update round (spec/cloneset.md §3.7, §3.8): first every pod's in-place Refresh and lifecycle refresh (any
// write ends the round), then — unless paused — the pods the diff and budget allow move to the target revision, in
// place when possible, else by marking them specified-delete for Scale to recreate.
import { PodRevisionLabel, PodTemplateHashLabel, SpecifiedDeleteLabel } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { calculateDiffs } from '../../shared/domain/cloneset/diff.js';
import { rfc3339 } from '../../shared/domain/cloneset/inplace-annotations.js';
import { inPlaceUpdateSpec, refreshInPlace, startInPlaceUpdate } from '../../shared/domain/cloneset/inplace.js';
import { inPlaceGate, nextLifecycleState } from '../../shared/domain/cloneset/lifecycle.js';
import { matchesRevision } from '../../shared/domain/cloneset/pod-predicates.js';
import { hashOf, revisionTemplate } from '../../shared/domain/cloneset/revision.js';
import { limitUpdates, updateCandidates } from '../../shared/domain/cloneset/update.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { patchPodStatus, updatePod } from '../sidecarset/pod-writes.js';
import { at, FIELD_MANAGER, requeueAfter, subject, type Round } from './context.js';
import { writeLifecycle } from './lifecycle-write.js';
import { inPlaceNotReadyPatch, inPlaceReadyPatch } from './pod-conditions.js';
import { sortForUpdate } from './update-order.js';
import { pubAllowsUpdate } from './pub-gate.js';

/**
 * Pod writes of one round in flight at once. Upstream writes them one after another; here a rollout would then move
 * at one pod's three or four round trips at a time, far inside its maxUnavailable budget (1,000 pods: ~100 s).
 */
export const POD_WRITE_CONCURRENCY = 16;

/**
 * Writes `mutate`'s change to `base` (patch of labels, annotations, images, with its resourceVersion): the cached pod,
 * or the pod a status write of ours answered with — the cached one is stale for sure after that write. Undefined (a
 * status write found the pod gone) reads it afresh.
 */
async function writePod(round: Round, base: Pod | undefined, at: { namespace: string; name: string }, mutate: (p: Pod) => boolean): Promise<Pod | undefined> {
  const written = await updatePod(round.deps.rest, round.deps.clock, at, mutate, base, FIELD_MANAGER);
  if (written) expectWritten(round, written);
  return written;
}

const expectWritten = (round: Round, pod: Pod | undefined) => round.deps.rvExpectations.expect(pod?.metadata?.uid, pod?.metadata?.resourceVersion);

/**
 * Gives `pod` the labels, annotations and container images of `next` (a changed copy of the cached pod); updatePod
 * then writes only what differs, so SidecarSet's keys and sidecar images are never touched unless `next` changed them.
 */
function takeChanges(pod: Pod, next: Pod): true {
  pod.metadata = { ...pod.metadata, labels: structuredClone(next.metadata?.labels), annotations: structuredClone(next.metadata?.annotations) };
  for (const c of pod.spec?.containers ?? []) c.image = next.spec?.containers.find((x) => x.name === c.name)?.image ?? c.image;
  return true;
}

/** Step 1: Refresh each pod; true when any pod was written. */
async function refreshPods(round: Round): Promise<boolean> {
  const now = rfc3339(round.nowMs);
  let wrote = false;
  await forEachLimit(round.pods, POD_WRITE_CONCURRENCY, async (pod) => {
    if (await refreshPod(round, pod, now)) wrote = true;
  });
  return wrote;
}

async function refreshPod(round: Round, pod: Pod, now: string): Promise<boolean> {
  const r = refreshInPlace(pod, round.nowMs);
  if (r.kind === 'write') {
    await writePod(round, pod, at(pod), (p) => takeChanges(p, r.pod));
    return true;
  }
  if (r.kind === 'wait') {
    if (r.requeueAfterMs) requeueAfter(round, r.requeueAfterMs);
    return false;
  }
  const ready = inPlaceReadyPatch(pod, now);
  let base: Pod | undefined = pod;
  if (ready) {
    base = await patchPodStatus(round.deps.rest, at(pod), ready, FIELD_MANAGER);
    expectWritten(round, base);
  }
  let wrote = !!ready;
  const lc = round.cs.spec?.lifecycle;
  const next = nextLifecycleState(pod, lc, round.revisions.update.metadata.name);
  if (next && await writeLifecycle(round, pod, { state: next, markPodNotReady: !!lc?.inPlaceUpdate?.markPodNotReady })) {
    wrote = true;
    base = undefined; // the state patch moved the pod on: read it afresh
  }
  if (pod.metadata?.labels?.[PodTemplateHashLabel] === undefined && pod.metadata?.labels?.[PodRevisionLabel] !== undefined) {
    await writePod(round, base, at(pod), (p) => {
      const labels = (p.metadata ??= {}).labels ??= {};
      if (labels[PodTemplateHashLabel] !== undefined || labels[PodRevisionLabel] === undefined) return false;
      labels[PodTemplateHashLabel] = hashOf(labels[PodRevisionLabel]);
      return true;
    });
    wrote = true;
  }
  return wrote;
}

export async function syncUpdate(round: Round): Promise<Error | undefined> {
  const { cs, revisions } = round;
  const u = cs.spec?.updateStrategy;
  if (u?.type === 'OnDelete') return undefined;
  if (await refreshPods(round)) return undefined;
  if (u?.paused) return undefined;
  const updateRev = revisions.update.metadata.name;
  const diffs = calculateDiffs({ pods: round.pods, updateRevision: updateRev, strategy: round.strategy, nowMs: round.nowMs });
  if (diffs.updateNum === 0) return undefined;
  const target = diffs.updateNum > 0 ? revisions.update : revisions.current;
  const candidates = sortForUpdate(updateCandidates(round.pods, updateRev, diffs.updateNum), u);
  const chosen = limitUpdates(candidates, round.pods, target.metadata.name, diffs, round.strategy.minReadySeconds, round.nowMs);
  let error: Error | undefined;
  let heldByPub = false;
  await forEachLimit(chosen, POD_WRITE_CONCURRENCY, async (pod) => {
    try {
      if (heldByPub || !(await pubAllowsUpdate(round, pod))) { heldByPub = true; return; }
      await updateOne(round, pod, target);
    } catch (err) {
      error ??= err as Error;
    }
  });
  return error;
}

async function updateOne(round: Round, pod: Pod, target: Round['revisions']['update']): Promise<void> {
  const { cs, deps } = round;
  const type = cs.spec?.updateStrategy?.type;
  const rev = target.metadata.name;
  const name = pod.metadata?.name ?? '';
  if (type === 'InPlaceIfPossible' || type === 'InPlaceOnly') {
    const old = round.revisions.all.find((r) => matchesRevision(pod, r.metadata.name));
    const oldT = old && revisionTemplate(old);
    const newT = revisionTemplate(target);
    const spec = oldT && newT ? inPlaceUpdateSpec(oldT, newT, rev) : undefined;
    if (spec) {
      const lc = cs.spec?.lifecycle;
      const gate = inPlaceGate(pod, lc);
      if (gate.kind === 'refuse') throw new Error(gate.message);
      if (gate.kind === 'wait') return;
      if (gate.kind === 'prepare') {
        await writeLifecycle(round, pod, { state: 'PreparingUpdate', markPodNotReady: !!lc?.inPlaceUpdate?.markPodNotReady,
          ...(gate.readdHook && lc?.inPlaceUpdate ? { readdHook: lc.inPlaceUpdate } : {}) });
        return;
      }
      // The pod's PodDisruptionBudget first (controller/disruption/pdb-gate.ts): none left, look again later.
      const budget = await deps.pdb?.admit(cs, pod);
      if (budget && !budget.go) { requeueAfter(round, budget.retryAfterMs); return; }
      const grace = cs.spec?.updateStrategy?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0;
      try {
        const notReady = inPlaceNotReadyPatch(pod, rfc3339(round.nowMs));
        const base = notReady ? await patchPodStatus(deps.rest, at(pod), notReady, FIELD_MANAGER) : pod;
        const next = startInPlaceUpdate(pod, spec, round.nowMs, grace);
        await writePod(round, base, at(pod), (p) => takeChanges(p, next));
        deps.events.event(subject(cs), 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pod ${name} in-place(revision ${rev})`);
        if (grace > 0) requeueAfter(round, grace * 1000);
      } catch (err) {
        deps.events.event(subject(cs), 'Warning', 'FailedUpdatePodInPlace', `failed to update pod ${name} in-place(revision ${rev}): ${(err as Error).message}`);
        throw err;
      }
      return;
    }
    if (type === 'InPlaceOnly') throw new Error(`find Pod ${name} update strategy is InPlaceOnly but can not update in-place`);
  }
  try {
    if (pod.metadata?.labels?.[SpecifiedDeleteLabel] === undefined) {
      await writePod(round, pod, at(pod), (p) => { ((p.metadata ??= {}).labels ??= {})[SpecifiedDeleteLabel] = 'true'; return true; });
    }
    deps.events.event(subject(cs), 'Normal', 'SuccessfulUpdatePodReCreate', `successfully patch pod ${name} specified-delete for update(revision ${rev})`);
  } catch (err) {
    deps.events.event(subject(cs), 'Warning', 'FailedUpdatePodReCreate', `failed to patch pod specified-delete ${name} for update(revision ${rev}): ${(err as Error).message}`);
    throw err;
  }
}
