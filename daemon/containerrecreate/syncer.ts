// One sync of the daemon's CRR work for a pod (queue key `<namespace>/<podName>`, so the CRRs of one pod are handled
// serially; spec/daemon-and-controllers.md §4.4). Gathers from caches and CRI, asks the pure planners, performs
// the one write or kill they ask for. Thrown errors are retried by the runner with backoff.
import type { Logger } from 'pino';
import {
  CRRPodUIDLabel, type ContainerRecreateRequest, type ContainerRecreateRequestStatus,
} from '../../shared/api/container-recreate-request.js';
import { objectKey, parseKey } from '../../shared/kube/keys.js';
import type { Result } from '../../shared/reconcile/types.js';
import type { RuntimeService } from '../cri/runtime.js';
import { MAX_EXPECTATION_WAIT_MS, type ResourceVersionExpectations } from './expectations.js';
import type { CrrWriter } from './kube-adapters.js';
import { killContainer, type CrrEvent } from './kill.js';
import { planManage, type KillOutcome } from './manage-plan.js';
import { newestByName, readPodContainers, type ObservedContainer } from './observed.js';
import type { HttpGet } from './prestop.js';
import { currentStates, timeMs } from './states.js';
import { pickRequest, planPreamble } from './sync-plan.js';

/** What the executor reports for metrics: each kill, and each CRR the daemon completes. */
export type ExecutorOutcome =
  | { kind: 'kill'; crr: string; container: string; ok: boolean; durationMs: number }
  | { kind: 'complete'; crr: string; result: 'succeeded' | 'failed'; message: string; durationMs: number };

export interface SyncerDeps {
  /** Cached, not-yet-deleted CRRs of pod `namespace/podName` on this node. */
  crrsForPod(namespace: string, podName: string): ContainerRecreateRequest[];
  /** Whether the CRR's pod exists with the labelled UID and is not deleting. */
  podPresent(crr: ContainerRecreateRequest): Promise<boolean>;
  /** Runtime name (the containerID scheme, e.g. `containerd`) → its CRI runtime service. */
  runtimes: ReadonlyMap<string, RuntimeService>;
  writer: CrrWriter;
  expectations: ResourceVersionExpectations;
  emitEvent(e: CrrEvent): void;
  now(): number;
  log: Logger;
  httpGet?: HttpGet;
  onOutcome?(o: ExecutorOutcome): void;
}

const STALE_RETRY_MS = 1_000;
/** The picked CRR as this sync knows it: the server's latest copy, plus a status change not yet written. */
interface Working {
  crr: ContainerRecreateRequest;
  unsaved: boolean;
}

/** Bound on the plan → write → plan steps of one sync (each step makes progress; this only guards a bug). */
const MAX_STEPS = 8;

/** RFC3339 with whole seconds, as metav1.Time serialises. */
export const apiTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export class CrrSyncer {
  constructor(private readonly deps: SyncerDeps) {}

  async sync(key: string, log: Logger = this.deps.log): Promise<Result> {
    const { namespace = '', name: podName } = parseKey(key);
    const { deps } = this;
    const { picked, toPending, stale } = pickRequest(deps.crrsForPod(namespace, podName), (crr) => this.cacheIsCurrent(crr, log));
    for (const crr of toPending) await this.writeStatus(crr, { ...crr.status, phase: 'Pending' });
    // Our write's watch event normally brings the next round; the requeue only covers a lost event.
    if (!picked) return stale ? { requeueAfterMs: STALE_RETRY_MS } : {};

    const crrLog = log.child({ crr: objectKey(picked) });
    const podPresent = await deps.podPresent(picked);
    // The sync goes on with each write's response (the CRR's newest version) instead of waiting for the watch to
    // bring it back, and the phase change to Recreating travels with the first container states, written while the
    // first container is being stopped: two API writes and two watch round trips sooner than upstream.
    let w: Working = { crr: picked, unsaved: false };
    for (let step = 0; step < MAX_STEPS; step++) {
      const pre = planPreamble({ crr: w.crr, podPresent, runtimes: new Set(deps.runtimes.keys()), nowMs: deps.now() });
      switch (pre.type) {
        case 'set-phase':
          w = { crr: { ...w.crr, status: { ...w.crr.status, phase: pre.phase } }, unsaved: true };
          continue;
        case 'complete':
          await this.complete(w.crr, pre.message, crrLog);
          return {};
        case 'wait-unready':
          await this.save(w);
          crrLog.debug('waiting for the manager to acquire pod not-ready');
          return {};
        case 'requeue':
          await this.save(w);
          return { requeueAfterMs: pre.afterMs };
        case 'manage':
          return this.manage(w, deps.runtimes.get(pre.runtime)!, pre.runtime, crrLog);
      }
    }
    return {};
  }

  private async manage(w: Working, runtime: RuntimeService, runtimeName: string, log: Logger): Promise<Result> {
    const { deps } = this;
    const podUid = w.crr.metadata?.labels?.[CRRPodUIDLabel] ?? '';
    const containers = await readPodContainers(runtime, runtimeName, podUid);
    const states = currentStates(w.crr, containers, deps.now());
    const presentNames = new Set(containers.map((c) => c.name));
    const killOutcomes = new Map<string, KillOutcome>();
    for (let step = 0; step < MAX_STEPS; step++) {
      const d = planManage({ crr: w.crr, states, presentNames, killOutcomes });
      switch (d.type) {
        case 'kill': {
          const target = newestByName(containers, d.container)!;
          // The first status write of a CRR (phase Recreating, Pending states) goes out together with the stop
          // instead of before it: one API round trip less between the CRR's creation and its container stopping.
          // A failed write after a done stop is harmless: the next round observes the stopped (or replaced)
          // container as Recreating. Not with forceRecreate, whose next round would stop the new container again
          // unless isKilled was stored first.
          if (w.unsaved && !w.crr.spec?.strategy?.forceRecreate) {
            const [saved, killed] = await Promise.allSettled([this.save(w), this.kill(w.crr, d.container, target, runtime, log)]);
            if (saved.status === 'rejected') throw saved.reason;
            w = saved.value;
            killOutcomes.set(d.container, (killed as PromiseFulfilledResult<KillOutcome>).value);
            continue;
          }
          w = await this.save(w);
          killOutcomes.set(d.container, await this.kill(w.crr, d.container, target, runtime, log));
          continue;
        }
        case 'patch-states':
          // Before any kill, new states of an unsaved CRR wait for the write that carries the phase (see 'kill').
          if (w.unsaved && killOutcomes.size === 0) {
            w = { crr: { ...w.crr, status: { ...w.crr.status, containerRecreateStates: d.states } }, unsaved: true };
            continue;
          }
          w = w.unsaved
            ? await this.save({ crr: { ...w.crr, status: { ...w.crr.status, containerRecreateStates: d.states } }, unsaved: true })
            : { crr: await this.track(w.crr, deps.writer.patchStates(w.crr, d.states)), unsaved: false };
          log.debug({ phase: w.crr.status?.phase, states: d.states, resourceVersion: w.crr.metadata?.resourceVersion }, 'wrote container states');
          // At most one kill per round: after one, the next round starts from the watch event of this write.
          if (killOutcomes.size > 0) return {};
          continue;
        case 'complete':
          await this.complete(w.crr, d.message, log);
          return {};
        case 'wait':
          await this.save(w);
          return d.requeueAfterMs ? { requeueAfterMs: d.requeueAfterMs } : {};
      }
    }
    await this.save(w);
    return {};
  }

  /** Writes a status change held back so far (the phase); a saved CRR is returned as is. */
  private async save(w: Working): Promise<Working> {
    if (!w.unsaved) return w;
    return { crr: await this.writeStatus(w.crr, w.crr.status ?? {}), unsaved: false };
  }

  private async kill(crr: ContainerRecreateRequest, name: string, obs: ObservedContainer, runtime: RuntimeService, log: Logger): Promise<KillOutcome> {
    const { deps } = this;
    const container = crr.spec!.containers.find((c) => c.name === name)!;
    const pod = { namespace: crr.metadata?.namespace ?? '', name: crr.spec?.podName ?? '', uid: crr.metadata?.labels?.[CRRPodUIDLabel] ?? '' };
    const started = deps.now();
    let outcome: KillOutcome;
    log.debug({ container: name, containerID: obs.id }, 'stopping container');
    try {
      await killContainer({ runtime, emitEvent: deps.emitEvent, now: deps.now, httpGet: deps.httpGet },
        { pod, container, criId: obs.criId, crrName: crr.metadata?.name ?? '', graceSeconds: crr.spec?.strategy?.terminationGracePeriodSeconds });
      outcome = { ok: true };
      log.info({ container: name, containerID: obs.id }, 'stopped container');
    } catch (err) {
      outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
      log.warn({ container: name, containerID: obs.id, err }, 'failed to stop container');
    }
    deps.onOutcome?.({ kind: 'kill', crr: objectKey(crr), container: name, ok: outcome.ok, durationMs: deps.now() - started });
    return outcome;
  }

  private async complete(crr: ContainerRecreateRequest, message: string, log: Logger): Promise<void> {
    const { deps } = this;
    const now = deps.now();
    const status: ContainerRecreateRequestStatus = { ...crr.status, phase: 'Completed', completionTime: apiTime(now), message };
    await this.writeStatus(crr, status);
    const failed = message !== '' || (status.containerRecreateStates ?? []).some((s) => s.phase === 'Failed');
    log.info({ message, result: failed ? 'failed' : 'succeeded' }, 'completed ContainerRecreateRequest');
    const created = timeMs(crr.metadata?.creationTimestamp);
    deps.onOutcome?.({ kind: 'complete', crr: objectKey(crr), result: failed ? 'failed' : 'succeeded', message, durationMs: created === undefined ? 0 : now - created });
  }

  private writeStatus(crr: ContainerRecreateRequest, status: ContainerRecreateRequestStatus): Promise<ContainerRecreateRequest> {
    return this.track(crr, this.deps.writer.updateStatus(crr, status));
  }

  /** Records the written version, so a cache still showing an older one is not acted on. */
  private async track(crr: ContainerRecreateRequest, write: Promise<ContainerRecreateRequest>): Promise<ContainerRecreateRequest> {
    const updated = await write;
    this.deps.expectations.expect(objectKey(crr), updated.metadata?.resourceVersion);
    return updated;
  }

  /** False while the cache still shows a copy older than our last write to it (for at most 10 s). */
  private cacheIsCurrent(crr: ContainerRecreateRequest, log: Logger): boolean {
    const key = objectKey(crr);
    const check = this.deps.expectations.check(key, crr.metadata?.resourceVersion);
    if (check.satisfied) return true;
    if (check.waitedMs < MAX_EXPECTATION_WAIT_MS) return false;
    log.warn({ crr: key, waitedMs: check.waitedMs }, 'cache has not shown our last write; trusting it');
    this.deps.expectations.delete(key);
    return true;
  }
}
