// Reconcile and workqueue metrics under controller-runtime v0.20's names, labels and help texts (the version
// OpenKruise v1.9 builds with), so existing dashboards and alerts work unchanged.
// Metrics live in the Registry the caller passes in (no prom-client global registry): several controllers in one
// process share a registry, so each metric is created once per registry and reused.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import type { QueueMetricsSink } from './queue.js';

export type ReconcileOutcome = 'success' | 'error' | 'requeue_after';

export interface ReconcileMetrics {
  observe(outcome: ReconcileOutcome, seconds: number, terminal: boolean): void;
  /** A worker picked up (+1) or finished (-1) a key: controller_runtime_active_workers. */
  active(delta: 1 | -1): void;
  setDepth(depth: number): void;
}

function reuse<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

// controller-runtime's ReconcileTime buckets.
const RECONCILE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
  1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60];
// prometheus.ExponentialBuckets(10e-9, 10, 12): 10 ns .. 1000 s.
const WORKQUEUE_BUCKETS = Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

/** Metrics of one controller (label `controller` = its name) in `registry`; `workers` is MaxConcurrentReconciles. */
export function reconcileMetrics(registry: Registry, controller: string, workers = 1): ReconcileMetrics {
  const registers = [registry];
  const counter = (name: string, help: string) => reuse(registry, name, () =>
    new Counter({ name, help, labelNames: ['controller'] as const, registers }));
  const gauge = (name: string, help: string) => reuse(registry, name, () =>
    new Gauge({ name, help, labelNames: ['controller'] as const, registers }));
  const total = reuse(registry, 'controller_runtime_reconcile_total', () => new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller',
    labelNames: ['controller', 'result'] as const,
    registers,
  }));
  const errors = counter('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller');
  const terminalErrors = counter('controller_runtime_terminal_reconcile_errors_total', 'Total number of terminal reconciliation errors per controller');
  const duration = reuse(registry, 'controller_runtime_reconcile_time_seconds', () => new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller',
    labelNames: ['controller'] as const,
    buckets: RECONCILE_BUCKETS,
    registers,
  }));
  const maxWorkers = gauge('controller_runtime_max_concurrent_reconciles', 'Maximum number of concurrent reconciles per controller');
  const activeWorkers = gauge('controller_runtime_active_workers', 'Number of currently used workers per controller');
  const depth = reuse(registry, 'workqueue_depth', () => new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    labelNames: ['name', 'controller'] as const,
    registers,
  }));
  // Zero-initialise so rate() works from the first scrape.
  for (const result of ['success', 'error', 'requeue_after'] as const) total.inc({ controller, result }, 0);
  errors.inc({ controller }, 0);
  terminalErrors.inc({ controller }, 0);
  maxWorkers.set({ controller }, workers);
  activeWorkers.set({ controller }, 0);
  depth.set({ name: controller, controller }, 0);

  return {
    observe(outcome, seconds, terminal) {
      total.inc({ controller, result: outcome });
      if (outcome === 'error') errors.inc({ controller });
      if (terminal) terminalErrors.inc({ controller });
      duration.observe({ controller }, seconds);
    },
    active(delta) {
      activeWorkers.inc({ controller }, delta);
    },
    setDepth(n) {
      depth.set({ name: controller, controller }, n);
    },
  };
}

type InFlight = () => Iterable<number>;
/** Per registry: each queue's in-flight start times, read at scrape time for the two "stuck worker" gauges. */
const inFlightByRegistry = new WeakMap<Registry, Map<string, InFlight>>();

/**
 * client-go's workqueue metrics for the queue `name` (controller-runtime labels both `name` and `controller` with
 * the controller name), as a sink for WorkQueue.instrument. Depth is reconcileMetrics' setDepth, fed by observeDepth.
 * unfinished_work_seconds and longest_running_processor_seconds are computed when scraped rather than by client-go's
 * 500 ms ticker: same values, no timer.
 */
export function workqueueMetrics(registry: Registry, name: string, clock: Clock): QueueMetricsSink {
  const registers = [registry];
  const labelNames = ['name', 'controller'] as const;
  const labels = { name, controller: name };
  let inFlight = inFlightByRegistry.get(registry);
  if (!inFlight) inFlightByRegistry.set(registry, (inFlight = new Map()));
  const queues = inFlight;
  const counter = (metric: string, help: string) => reuse(registry, metric, () => new Counter({ name: metric, help, labelNames, registers }));
  const histogram = (metric: string, help: string) => reuse(registry, metric, () =>
    new Histogram({ name: metric, help, labelNames, buckets: WORKQUEUE_BUCKETS, registers }));
  const scraped = (metric: string, help: string, value: (starts: number[], now: number) => number) => reuse(registry, metric, () => new Gauge({
    name: metric, help, labelNames, registers,
    collect() {
      const now = clock.now();
      for (const [queue, starts] of queues) this.set({ name: queue, controller: queue }, value([...starts()], now));
    },
  }));
  const adds = counter('workqueue_adds_total', 'Total number of adds handled by workqueue');
  const retries = counter('workqueue_retries_total', 'Total number of retries handled by workqueue');
  const latency = histogram('workqueue_queue_duration_seconds', 'How long in seconds an item stays in workqueue before being requested');
  const work = histogram('workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes.');
  scraped('workqueue_unfinished_work_seconds', 'How many seconds of work has been done that ' +
    'is in progress and hasn\'t been observed by work_duration. Large ' +
    'values indicate stuck threads. One can deduce the number of stuck ' +
    'threads by observing the rate at which this increases.', (starts, now) => starts.reduce((s, t) => s + (now - t) / 1000, 0));
  scraped('workqueue_longest_running_processor_seconds', 'How many seconds has the longest running ' +
    'processor for workqueue been running.', (starts, now) => starts.reduce((m, t) => Math.max(m, (now - t) / 1000), 0));

  const addTimes = new Map<string, number>();
  const processing = new Map<string, number>();
  queues.set(name, () => processing.values());
  adds.inc(labels, 0);
  retries.inc(labels, 0);
  latency.zero(labels);
  work.zero(labels);
  return {
    add(key) {
      adds.inc(labels);
      if (!addTimes.has(key)) addTimes.set(key, clock.now());
    },
    get(key) {
      const now = clock.now();
      processing.set(key, now);
      const added = addTimes.get(key);
      if (added !== undefined) {
        latency.observe(labels, (now - added) / 1000);
        addTimes.delete(key);
      }
    },
    done(key) {
      const started = processing.get(key);
      if (started === undefined) return;
      work.observe(labels, (clock.now() - started) / 1000);
      processing.delete(key);
    },
    retry() {
      retries.inc(labels);
    },
  };
}
