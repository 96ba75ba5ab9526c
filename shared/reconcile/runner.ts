// Runs a reconciler over a WorkQueue: the only place that turns reconcile outcomes into queue actions
// (controller-runtime reconcileHandler), logs them, and measures them. Wiring, in a main.ts:
//
//   const queue = new WorkQueue({ clock: realClock });
//   cache.onChange((obj) => queue.add(objectKey(obj)));          // keys, not events
//   await runReconciler({ name: 'imagepulljob', reconcile, queue, workers: 2, log, metrics: registry, signal });
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { realClock, type Clock } from '../clock.js';
import { reconcileMetrics, workqueueMetrics, type ReconcileMetrics, type ReconcileOutcome } from './metrics.js';
import type { WorkQueue } from './queue.js';
import { isTerminalError, type ReconcileFn } from './types.js';
import { yieldToLoop } from './yield.js';

export interface RunReconcilerOptions {
  /** Controller name: the `controller` log field and metrics label. */
  name: string;
  reconcile: ReconcileFn;
  queue: WorkQueue;
  /** Concurrent reconciles (MaxConcurrentReconciles); one key is still never reconciled twice at once. */
  workers: number;
  log: Logger;
  /** Where to register metrics; omitted means no metrics. */
  metrics?: Registry;
  /** Stops the workers; in-flight reconciles see it through ctx.signal. */
  signal: AbortSignal;
  /** Only for durations. */
  clock?: Clock;
  /** reconcileId generator; tests pass a deterministic one. */
  newId?: () => string;
}

/**
 * Processes keys until `signal` aborts, then shuts the queue down and resolves once in-flight reconciles finish.
 *
 * - thrown error → addRateLimited (per-key exponential backoff), unless it is (or wraps) a TerminalError, which is
 *   logged and forgotten;
 * - `{ requeueAfterMs }` → forget (reset backoff) + addAfter;
 * - otherwise → forget.
 */
export async function runReconciler(opts: RunReconcilerOptions): Promise<void> {
  const { queue, signal } = opts;
  const log = opts.log.child({ controller: opts.name });
  const workers = Math.max(1, opts.workers);
  const metrics = opts.metrics ? reconcileMetrics(opts.metrics, opts.name, workers) : undefined;
  const unobserve = metrics ? queue.observeDepth((d) => metrics.setDepth(d)) : undefined;
  const uninstrument = opts.metrics ? queue.instrument(workqueueMetrics(opts.metrics, opts.name, opts.clock ?? realClock)) : undefined;
  const onAbort = () => void queue.shutDown();
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  log.info({ workers: opts.workers }, 'starting workers');
  try {
    await Promise.all(Array.from({ length: workers }, () => worker(opts, log, metrics)));
    await queue.shutDown();
  } finally {
    signal.removeEventListener('abort', onAbort);
    unobserve?.();
    uninstrument?.();
  }
  log.info('all workers finished');
}

async function worker(opts: RunReconcilerOptions, log: Logger, metrics: ReconcileMetrics | undefined): Promise<void> {
  for (;;) {
    // A reconcile that needs no I/O resolves in microtasks, and so does get() while keys are queued: without this
    // turn of the loop, a backlog of such keys would run back to back as one macrotask, holding timers (lease,
    // health, metrics) and informer events for as long as the backlog lasts.
    await yieldToLoop();
    const item = await opts.queue.get();
    if (item.shutdown) return;
    metrics?.active(1);
    try {
      await processKey(opts, item.key, log, metrics);
    } finally {
      metrics?.active(-1);
      opts.queue.done(item.key);
    }
  }
}

async function processKey(opts: RunReconcilerOptions, key: string, log: Logger, metrics: ReconcileMetrics | undefined): Promise<void> {
  const { queue } = opts;
  const clock = opts.clock ?? realClock;
  const rlog = log.child({ key, reconcileId: (opts.newId ?? randomUUID)() });
  const started = clock.now();
  let outcome: ReconcileOutcome;
  let terminal = false;
  try {
    const result = await opts.reconcile(key, { log: rlog, signal: opts.signal });
    const after = result?.requeueAfterMs;
    queue.forget(key);
    if (after !== undefined && after > 0) {
      queue.addAfter(key, after);
      outcome = 'requeue_after';
    } else {
      outcome = 'success';
    }
  } catch (err) {
    outcome = 'error';
    if (isTerminalError(err)) {
      terminal = true;
      queue.forget(key);
      rlog.error({ err }, 'reconciler error (terminal, not requeued)');
    } else {
      queue.addRateLimited(key);
      rlog.error({ err, requeues: queue.numRequeues(key) }, 'reconciler error');
    }
  }
  metrics?.observe(outcome, (clock.now() - started) / 1000, terminal);
}
