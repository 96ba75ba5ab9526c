// The node's image puller: one `sync(nodeImage)` per NodeImage change or requeue (spec/daemon-and-controllers.md
// §2.4). It applies planSync's decisions to in-memory pulls, reports the resulting status through the injected
// writeStatus, and emits PullImageSucceed / PullImageFailed events. Every dependency is passed in.
import type { V1ObjectReference } from '@kubernetes/client-node';
import { KRUISE_API_VERSION_V1BETA1 } from '../../shared/api/meta.js';
import type { ImageTagStatus, NodeImage, NodeImageStatus, ReferenceObject } from '../../shared/api/node-image.js';
import type { ImageService } from '../cri/runtime.js';
import { failedMessage, REASON_PULL_FAILED, REASON_PULL_SUCCEEDED, succeededMessage, type PullEvent } from './events.js';
import { DEADLINE_MESSAGE, needsFastRequeue, planSync, pullKey, toApiTime, type PullTask } from './plan.js';
import { PullPool, runPull, type PullClock, type PullOutcome } from './pull-worker.js';
import { authsForImage, makeKeyring, type SecretLike } from './secrets.js';
import { StatusWriteGate } from './status-gate.js';

export interface PullerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Metrics hooks (daemon/metrics.ts): a pull started or stopped running, a pull ended with a final status. */
export interface PullObserver {
  running(delta: 1 | -1): void;
  finished(result: 'succeeded' | 'failed', elapsedMs: number): void;
}

export interface PullerDeps {
  images: ImageService;
  clock: PullClock;
  random?: () => number;
  /** --max-workers-for-pull-image; 0 = unbounded. */
  maxConcurrentPulls?: number;
  /** Resolves the Secrets behind `pullSecrets` refs; missing or unreadable ones are simply left out. */
  getPullSecrets(refs: ReferenceObject[]): Promise<SecretLike[]>;
  emitEvent(event: PullEvent): void;
  /** Full replace of the NodeImage status subresource; a rejection is retried by the caller's queue. */
  writeStatus(nodeImage: NodeImage, status: NodeImageStatus): Promise<void>;
  /** A pull changed phase: the caller should sync again soon (upstream re-enqueues the NodeImage). */
  onPullUpdate?(): void;
  observer?: PullObserver;
  log?: PullerLog;
}

export interface SyncResult {
  status: NodeImageStatus;
  written: boolean;
  requeueAfterMs: number;
}

interface Worker {
  task: PullTask;
  status: ImageTagStatus;
  abort: AbortController;
  done: Promise<void>;
}

const silent: PullerLog = { info: () => undefined, warn: () => undefined };

export class ImagePuller {
  private readonly workers = new Map<string, Worker>();
  private readonly pool: PullPool;
  private readonly gate: StatusWriteGate;
  private readonly random: () => number;
  private readonly log: PullerLog;
  private nodeImageRef: V1ObjectReference = { apiVersion: KRUISE_API_VERSION_V1BETA1, kind: 'NodeImage' };

  constructor(private readonly deps: PullerDeps) {
    this.pool = new PullPool(deps.maxConcurrentPulls ?? 0);
    this.random = deps.random ?? Math.random;
    this.gate = new StatusWriteGate(() => deps.clock.nowMs(), this.random);
    this.log = deps.log ?? silent;
  }

  /** Highest number of pulls that ran at the same time (for tests and metrics). */
  get peakConcurrency(): number {
    return this.pool.peak;
  }

  async sync(nodeImage: NodeImage): Promise<SyncResult> {
    const { metadata } = nodeImage;
    this.nodeImageRef = { apiVersion: KRUISE_API_VERSION_V1BETA1, kind: 'NodeImage', name: metadata?.name, uid: metadata?.uid, resourceVersion: metadata?.resourceVersion };
    const observe = () => ({ spec: nodeImage.spec, status: nodeImage.status, pulls: [...this.workers.values()], nowMs: this.deps.clock.nowMs() });
    const plan = planSync(observe());
    for (const { name, tag } of plan.cancel) this.stopWorker(name, tag);
    for (const { name, tag } of plan.expired) this.expireWorker(name, tag);
    const authsByImage = new Map<string, Awaited<ReturnType<typeof authsForImage>>>();
    for (const task of plan.start) {
      if (!authsByImage.has(task.name)) {
        authsByImage.set(task.name, authsForImage(makeKeyring(await this.secretsFor(task)), task.name));
      }
      this.startWorker(task, authsByImage.get(task.name)!);
    }
    const { status } = planSync(observe());
    const decision = this.gate.decide(status);
    if (decision === 'write') {
      await this.deps.writeStatus(nodeImage, status);
      this.gate.written(status);
    }
    const fast = decision === 'limited' || needsFastRequeue(nodeImage.spec, status);
    const requeueAfterMs = fast ? 3_000 + Math.floor(this.random() * 2_000) : 20 * 60_000 + Math.floor(this.random() * 10 * 60_000);
    return { status, written: decision === 'write', requeueAfterMs };
  }

  /** Stops every pull (daemon shutdown); nothing more is published. */
  stop(): void {
    for (const w of this.workers.values()) w.abort.abort();
    this.workers.clear();
  }

  /** Resolves when every pull started so far has finished or stopped. */
  async settled(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.done));
  }

  /** §2.5: a Secret that cannot be fetched is logged (by reference only) and skipped, never fatal. */
  private async secretsFor(task: PullTask): Promise<SecretLike[]> {
    if (task.pullSecrets.length === 0) return [];
    try {
      return await this.deps.getPullSecrets(task.pullSecrets);
    } catch (err) {
      this.log.warn({ image: task.name, pullSecrets: task.pullSecrets, error: (err as Error).message }, 'cannot fetch pull secrets; pulling anonymously');
      return [];
    }
  }

  private stopWorker(name: string, tag: string): void {
    const key = pullKey(name, tag);
    this.workers.get(key)?.abort.abort();
    this.workers.delete(key);
    this.log.info({ image: key }, 'stopped pull');
  }

  private expireWorker(name: string, tag: string): void {
    const w = this.workers.get(pullKey(name, tag));
    if (!w) return;
    w.abort.abort();
    const now = this.deps.clock.nowMs();
    const elapsedMs = w.status.startTime ? now - Date.parse(w.status.startTime) : 0;
    w.status = { ...w.status, phase: 'Failed', completionTime: toApiTime(now), message: DEADLINE_MESSAGE };
    this.report(w, { ok: false, status: w.status, elapsedMs, error: DEADLINE_MESSAGE });
  }

  private startWorker(task: PullTask, auths: ReturnType<typeof authsForImage>): void {
    const abort = new AbortController();
    const w: Worker = { task, status: { tag: task.tag, phase: 'Waiting', version: task.version }, abort, done: Promise.resolve() };
    const publish = (s: ImageTagStatus) => {
      if (abort.signal.aborted) return;
      w.status = s;
      this.deps.onPullUpdate?.();
    };
    w.done = new Promise<void>((resolve) => {
      this.pool.submit(async () => {
        this.deps.observer?.running(1);
        try {
          const outcome = await runPull(task, { images: this.deps.images, clock: this.deps.clock, auths, publish }, abort.signal);
          if (outcome && !abort.signal.aborted) this.report(w, outcome);
        } finally {
          this.deps.observer?.running(-1);
          resolve();
        }
      }, abort.signal);
      abort.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    this.workers.set(pullKey(task.name, task.tag), w);
    this.log.info({ image: pullKey(task.name, task.tag), version: task.version, credentials: auths.length }, 'queued pull');
  }

  private report(w: Worker, outcome: PullOutcome): void {
    const { name, tag } = w.task;
    this.deps.observer?.finished(outcome.ok ? 'succeeded' : 'failed', outcome.elapsedMs);
    if (outcome.ok) {
      this.log.info({ image: pullKey(name, tag), elapsedMs: outcome.elapsedMs }, 'pulled image');
      this.deps.emitEvent({ involvedObject: this.nodeImageRef, type: 'Normal', reason: REASON_PULL_SUCCEEDED, message: succeededMessage(name, tag, outcome.elapsedMs) });
    } else {
      const message = failedMessage(name, tag, outcome.error ?? '');
      this.log.warn({ image: pullKey(name, tag), error: outcome.error }, 'image pull failed');
      for (const owner of w.task.ownerReferences) this.deps.emitEvent({ involvedObject: owner, type: 'Warning', reason: REASON_PULL_FAILED, message });
      this.deps.emitEvent({ involvedObject: this.nodeImageRef, type: 'Warning', reason: REASON_PULL_FAILED, message });
    }
    this.deps.onPullUpdate?.();
  }
}
