// A keyed, de-duplicating, delaying, rate-limited work queue with client-go workqueue semantics (style P6).
//
// The three sets are client-go's: `queue` (order), `dirty` (needs processing), `processing` (handed to a worker).
// A key is in `queue` at most once, and a key that is re-added while a worker holds it waits in `dirty` until
// done(), so one key is never reconciled by two workers at once and no update is lost.
import type { Clock, TimerHandle } from '../clock.js';
import { defaultControllerRateLimiter, type RateLimiter } from './backoff.js';

export type GetResult = { key: string; shutdown: false } | { key: undefined; shutdown: true };

/**
 * What the queue reports to its metrics, as client-go's queueMetrics: add when a key becomes dirty (duplicates are
 * not counted), get when it is handed to a worker, done when the worker finishes, retry on every addAfter /
 * addRateLimited. Kept as events so timing and naming live in one place (reconcile/metrics.ts).
 */
export interface QueueMetricsSink {
  add(key: string): void;
  get(key: string): void;
  done(key: string): void;
  retry(): void;
}

export interface WorkQueueOptions {
  clock: Clock;
  /** Defaults to controller-runtime's exponential (5 ms..1000 s) + bucket (10 qps, burst 100). */
  rateLimiter?: RateLimiter;
}

export class WorkQueue {
  private readonly clock: Clock;
  private readonly limiter: RateLimiter;
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly waiting = new Map<string, { due: number; handle: TimerHandle }>();
  private readonly getters: ((r: GetResult) => void)[] = [];
  private readonly depthListeners = new Set<(depth: number) => void>();
  private readonly sinks = new Set<QueueMetricsSink>();
  private drained: (() => void)[] = [];
  private shuttingDown = false;

  constructor(opts: WorkQueueOptions) {
    this.clock = opts.clock;
    this.limiter = opts.rateLimiter ?? defaultControllerRateLimiter(opts.clock);
  }

  /** Marks `key` as needing work. A no-op while it is already queued, or after shutDown. */
  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    for (const m of this.sinks) m.add(key);
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.push(key);
  }

  /** Adds `key` after `ms`. If the key is already waiting, the earlier of the two deadlines wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    for (const m of this.sinks) m.retry();
    if (ms <= 0) return this.add(key);
    const due = this.clock.now() + ms;
    const existing = this.waiting.get(key);
    if (existing && existing.due <= due) return;
    if (existing) this.clock.clearTimeout(existing.handle);
    const handle = this.clock.setTimeout(() => {
      this.waiting.delete(key);
      this.add(key);
    }, ms);
    this.waiting.set(key, { due, handle });
  }

  /** Adds `key` after the rate limiter's delay for it (one more recorded failure). */
  addRateLimited(key: string): void {
    this.addAfter(key, this.limiter.when(key));
  }

  /** Resets the failure history of `key`; it does not remove the key from the queue. */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.limiter.numRequeues(key);
  }

  /**
   * Waits for the next key and marks it as processing; the caller must call done(key) afterwards.
   * After shutDown it resolves `{ shutdown: true }` at once: backlog is dropped, because keys are level-based and
   * whoever runs next lists everything again.
   */
  get(): Promise<GetResult> {
    if (this.shuttingDown) return Promise.resolve({ key: undefined, shutdown: true });
    const key = this.queue.shift();
    if (key !== undefined) return Promise.resolve(this.take(key));
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Ends processing of `key`; if it was re-added meanwhile, it goes back on the queue now. */
  done(key: string): void {
    if (this.processing.has(key)) for (const m of this.sinks) m.done(key);
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key);
    if (this.shuttingDown && this.processing.size === 0) this.releaseDrainers();
  }

  /** Keys waiting to be handed out (not counting delayed or in-flight ones), as client-go's Len(). */
  len(): number {
    return this.queue.length;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Calls `fn` with the depth whenever it changes (for a metrics gauge). Returns an unsubscribe function. */
  observeDepth(fn: (depth: number) => void): () => void {
    this.depthListeners.add(fn);
    fn(this.queue.length);
    return () => this.depthListeners.delete(fn);
  }

  /** Reports queue events to `sink` (a metrics adapter). Returns an unsubscribe function. */
  instrument(sink: QueueMetricsSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /**
   * Stops the queue: no more adds, delayed adds are cancelled, blocked get() calls return shutdown. Resolves when
   * every key already handed to a worker has been done() (client-go ShutDownWithDrain).
   */
  shutDown(): Promise<void> {
    if (!this.shuttingDown) {
      this.shuttingDown = true;
      for (const w of this.waiting.values()) this.clock.clearTimeout(w.handle);
      this.waiting.clear();
      this.queue.length = 0;
      this.dirty.clear();
      this.notifyDepth();
      for (const g of this.getters.splice(0)) g({ key: undefined, shutdown: true });
    }
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  private push(key: string): void {
    const getter = this.getters.shift();
    if (getter) return getter(this.take(key));
    this.queue.push(key);
    this.notifyDepth();
  }

  private take(key: string): GetResult {
    this.processing.add(key);
    this.dirty.delete(key);
    for (const m of this.sinks) m.get(key);
    this.notifyDepth();
    return { key, shutdown: false };
  }

  private notifyDepth(): void {
    for (const l of this.depthListeners) l(this.queue.length);
  }

  private releaseDrainers(): void {
    for (const d of this.drained.splice(0)) d();
  }
}
