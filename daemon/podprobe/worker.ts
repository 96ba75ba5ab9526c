// One probe of one container (spec §6.3): a loop that finds the container through CRI, runs the handler every
// period and publishes into the result cache once a result has repeated `threshold` times. Time and randomness
// are injected, so the timing clamps are tested without sleeping.
import { isDeepStrictEqual } from 'node:util';
import type { V1Probe } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { sleep, type Clock } from '../../shared/clock.js';
import type { ContainerStatus, RuntimeService } from '../cri/runtime.js';
import type { HandlerKind } from './handler-result.js';
import { handlerKind, MAX_WAIT_MS, outcomeOf, realHandlers, runHandler, type Handlers } from './prober.js';
import type { ProbeKey, ProbeResults } from './results.js';

/** kubelet's label on every container of a pod (kubelettypes.KubernetesPodUIDLabel). */
export const POD_UID_LABEL = 'io.kubernetes.pod.uid';
/** Deadline of the ListContainers / ContainerStatus calls of one tick. */
export const CRI_LOOKUP_TIMEOUT_MS = 10_000;

export type ProbeRunResult = 'succeeded' | 'failed' | 'error';

export interface WorkerDeps {
  runtime: RuntimeService;
  results: ProbeResults;
  clock: Clock;
  /** [0, 1), for the start-up jitter. */
  random: () => number;
  /** When the daemon started (ms since the epoch): workers started within one period of it spread their first probe. */
  daemonStartMs: number;
  log: Logger;
  handlers?: Handlers;
  /** One call per handler run: its kind, result and duration in seconds (the daemon's probe metrics). */
  observe?: (kind: HandlerKind, result: ProbeRunResult, seconds: number) => void;
}

/** `max(periodSeconds, 1)` s, `max(initialDelaySeconds, 1)`, thresholds `max(x, 1)`: no Kubernetes defaults (§11.10). */
export const periodMsOf = (p: V1Probe): number => Math.max(p.periodSeconds ?? 0, 1) * 1000;
const initialDelayOf = (p: V1Probe): number => Math.max(p.initialDelaySeconds ?? 0, 1);
const thresholdOf = (n: number | undefined): number => Math.max(n ?? 0, 1);
const handlerOf = (p: V1Probe) => ({ exec: p.exec, httpGet: p.httpGet, tcpSocket: p.tcpSocket, grpc: p.grpc });

export class ProbeWorker {
  private readonly stopper = new AbortController();
  private containerId = '';
  private lastResult: 'Succeeded' | 'Failed' | undefined;
  /** Consecutive equal results; as upstream, not reset when the container restarts. */
  private resultRun = 0;
  /** The last "could not run" reason logged: a probe that cannot run logs once per new reason, not every period. */
  private lastError = '';

  constructor(private readonly deps: WorkerDeps, readonly key: ProbeKey, private probe: V1Probe) {}

  get spec(): V1Probe {
    return this.probe;
  }

  /** A new spec takes effect at the next tick; a new handler also resets the published result to Unknown. */
  updateSpec(probe: V1Probe): void {
    if (!isDeepStrictEqual(handlerOf(this.probe), handlerOf(probe)) && this.containerId) {
      this.deps.results.set(this.containerId, this.key, 'Unknown', '');
    }
    this.probe = probe;
  }

  /** Stops the loop (an in-flight probe publishes nothing) and drops the probe's result at once. Idempotent. */
  stop(): void {
    this.stopper.abort();
    this.deps.results.remove(this.key);
  }

  get stopped(): boolean {
    return this.stopper.signal.aborted;
  }

  /** The loop: resolves after stop(). */
  async run(): Promise<void> {
    const { clock } = this.deps;
    const signal = this.stopper.signal;
    const first = periodMsOf(this.probe);
    // After a daemon restart every worker would probe at once: spread the first probes over one period.
    if (first > clock.now() - this.deps.daemonStartMs) await sleep(clock, Math.min(Math.floor(this.deps.random() * first), MAX_WAIT_MS), signal);
    let due = clock.now();
    while (!signal.aborted) {
      try {
        await this.tick();
      } catch (err) {
        // Upstream swallows a panic of one tick and keeps probing.
        this.deps.log.error({ err, probe: this.key }, 'probe tick failed');
      }
      // Kruise deviation (§11.8): the period is read each tick, so a changed periodSeconds applies without a restart.
      // Like a Go ticker, a probe that overran its period is followed at once by the next one, not by a full period.
      due = Math.max(due + periodMsOf(this.probe), clock.now());
      await sleep(clock, Math.min(due - clock.now(), MAX_WAIT_MS), signal);
    }
  }

  private async latestContainer(): Promise<ContainerStatus | undefined> {
    const { runtime } = this.deps;
    const all = await runtime.listContainers({ labelSelector: { [POD_UID_LABEL]: this.key.podUid } }, { timeoutMs: CRI_LOOKUP_TIMEOUT_MS });
    let latest: (typeof all)[number] | undefined;
    for (const c of all) if (c.name === this.key.containerName && (!latest || c.createdAtNs > latest.createdAtNs)) latest = c;
    return latest && runtime.containerStatus(latest.id, { timeoutMs: CRI_LOOKUP_TIMEOUT_MS });
  }

  private publish(state: 'Succeeded' | 'Failed' | 'Unknown', message: string): void {
    if (!this.stopped) this.deps.results.set(this.containerId, this.key, state, message);
  }

  /** One probe (upstream doProbe). */
  async tick(): Promise<void> {
    const { clock, log } = this.deps;
    let container: ContainerStatus | undefined;
    try {
      container = await this.latestContainer();
    } catch (err) {
      log.debug({ err, probe: this.key }, 'container lookup failed');
      return;
    }
    if (!container || this.stopped) return;
    if (container.id !== this.containerId) {
      this.containerId = container.id;
      this.publish('Unknown', '');
    }
    if (container.state !== 'running') {
      this.publish('Failed', `Container(${this.key.containerName}) is Non-running`);
      // Kruise deviation (§11.8): upstream probes anyway, so a tcp/http probe answered by another container flips the
      // state between two messages every period. A container that is not running is not probed.
      return;
    }
    const sinceStart = Math.trunc((clock.now() - Number(container.startedAtNs / 1_000_000n)) / 1000);
    if (sinceStart < initialDelayOf(this.probe)) return;

    const probe = this.probe;
    const kind = handlerKind(probe);
    const began = clock.now();
    let outcome;
    try {
      outcome = outcomeOf(await runHandler(this.deps.runtime, probe, { ...this.key, containerId: this.containerId }, this.deps.handlers ?? realHandlers));
    } catch (err) {
      if (kind) this.deps.observe?.(kind, 'error', (clock.now() - began) / 1000);
      const reason = err instanceof Error ? err.message : String(err);
      if (reason !== this.lastError) log.info({ err, probe: this.key }, 'probe could not run');
      this.lastError = reason;
      return;
    }
    this.lastError = '';
    if (kind) this.deps.observe?.(kind, outcome.state === 'Succeeded' ? 'succeeded' : 'failed', (clock.now() - began) / 1000);
    if (this.lastResult === outcome.state) this.resultRun++;
    else { this.lastResult = outcome.state; this.resultRun = 1; }
    const threshold = outcome.state === 'Failed' ? thresholdOf(probe.failureThreshold) : thresholdOf(probe.successThreshold);
    if (this.resultRun < threshold) return;
    this.publish(outcome.state, outcome.message);
  }
}
