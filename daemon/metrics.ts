// Prometheus metrics of the node daemon, on one explicit registry that main.ts serves on /metrics. The
// sub-controllers get the pieces they update: the puller its gauge and histogram, the CRR executor
// `crrOutcomes.inc({ result })`. The reconcile runners register controller-runtime's metrics in the same registry.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { eventLoopDelayMetrics } from '../shared/event-loop-metrics.js';

export type PullResult = 'succeeded' | 'failed';

export interface DaemonMetrics {
  registry: Registry;
  /** Pulls running right now (queued ones behind MAX_WORKERS_FOR_PULL_IMAGE are not counted). */
  pullsInFlight: Gauge;
  /** From a pull's start to its final status, by result. Stopped pulls are not observed. */
  pullDuration: Histogram<'result'>;
  /** One increment per ContainerRecreateRequest the daemon finishes, by result (e.g. `Succeeded`, `Failed`). */
  crrOutcomes: Counter<'result'>;
}

export function createDaemonMetrics(opts: { defaultMetrics?: boolean } = {}): DaemonMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics) {
    collectDefaultMetrics({ register: registry });
    eventLoopDelayMetrics(registry);
  }
  const registers = [registry];
  const pullDuration = new Histogram({
    name: 'kruise_daemon_image_pull_duration_seconds',
    help: 'Time from the start of an image pull to its Succeeded or Failed status, retries included.',
    labelNames: ['result'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
    registers,
  });
  const crrOutcomes = new Counter({
    name: 'kruise_daemon_crr_outcomes_total',
    help: 'ContainerRecreateRequests finished by this daemon, by result.',
    labelNames: ['result'] as const,
    registers,
  });
  // Zero series so rate() and absent() work from the first scrape.
  for (const result of ['succeeded', 'failed'] as const) {
    pullDuration.zero({ result });
    crrOutcomes.inc({ result }, 0);
  }
  return {
    registry,
    pullsInFlight: new Gauge({ name: 'kruise_daemon_image_pulls_in_flight', help: 'Image pulls running now.', registers }),
    pullDuration,
    crrOutcomes,
  };
}
