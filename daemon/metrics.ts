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
  /** One observation per NodePodProbe probe run, by handler (`exec`, `httpGet`, `tcpSocket`) and result (`succeeded`, `failed`, `error`). */
  probeDuration: Histogram<'probe_type' | 'result'>;
  /** Probe workers running on this node (one per pod, container and probe of the node's NodePodProbe). */
  probeWorkers: Gauge;
  /** NodePodProbe status writes, by result (`succeeded`, `failed`). */
  probeStatusWrites: Counter<'result'>;
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
  // Per probe type and result, not per pod or probe name: the label set stays bounded however many probes a node runs.
  const probeDuration = new Histogram({
    name: 'kruise_daemon_probe_duration_seconds',
    help: 'Time of one NodePodProbe probe run (exec through CRI ExecSync, httpGet, tcpSocket), by handler and result.',
    labelNames: ['probe_type', 'result'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const probeStatusWrites = new Counter({
    name: 'kruise_daemon_probe_status_writes_total',
    help: 'NodePodProbe status updates written by this daemon, by result.',
    labelNames: ['result'] as const,
    registers,
  });
  // Zero series so rate() and absent() work from the first scrape.
  for (const result of ['succeeded', 'failed'] as const) {
    pullDuration.zero({ result });
    crrOutcomes.inc({ result }, 0);
    probeStatusWrites.inc({ result }, 0);
  }
  return {
    registry,
    pullsInFlight: new Gauge({ name: 'kruise_daemon_image_pulls_in_flight', help: 'Image pulls running now.', registers }),
    pullDuration,
    crrOutcomes,
    probeDuration,
    probeWorkers: new Gauge({ name: 'kruise_daemon_probe_workers', help: 'NodePodProbe probe workers running on this node.', registers }),
    probeStatusWrites,
  };
}
