// The controller manager's Prometheus registry as main.ts builds it: process and runtime metrics (prom-client's
// defaults, with the event-loop lag gauges) and the event-loop delay histogram. The controllers, the runners and the
// leader election add theirs to it.
import { collectDefaultMetrics, Registry } from 'prom-client';
import { eventLoopDelayMetrics } from '../shared/event-loop-metrics.js';

export function createManagerRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  eventLoopDelayMetrics(registry);
  return registry;
}
