// Reconcile metrics under controller-runtime's names, so existing dashboards and alerts work unchanged.
// Metrics live in the Registry the caller passes in (no prom-client global registry): several controllers in one
// process share a registry, so each metric is created once per registry and reused.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export type ReconcileOutcome = 'success' | 'error' | 'requeue_after';

export interface ReconcileMetrics {
  observe(outcome: ReconcileOutcome, seconds: number, terminal: boolean): void;
  setDepth(depth: number): void;
}

function reuse<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/** Metrics of one controller (label `controller` / `name` = its name) in `registry`. */
export function reconcileMetrics(registry: Registry, controller: string): ReconcileMetrics {
  const registers = [registry];
  const total = reuse(registry, 'controller_runtime_reconcile_total', () => new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller',
    labelNames: ['controller', 'result'] as const,
    registers,
  }));
  const errors = reuse(registry, 'controller_runtime_reconcile_errors_total', () => new Counter({
    name: 'controller_runtime_reconcile_errors_total',
    help: 'Total number of reconciliation errors per controller',
    labelNames: ['controller'] as const,
    registers,
  }));
  const terminalErrors = reuse(registry, 'controller_runtime_terminal_reconcile_errors_total', () => new Counter({
    name: 'controller_runtime_terminal_reconcile_errors_total',
    help: 'Total number of terminal reconciliation errors per controller',
    labelNames: ['controller'] as const,
    registers,
  }));
  const duration = reuse(registry, 'controller_runtime_reconcile_time_seconds', () => new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller',
    labelNames: ['controller'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  }));
  const depth = reuse(registry, 'workqueue_depth', () => new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    labelNames: ['name'] as const,
    registers,
  }));
  // Zero-initialise so rate() works from the first scrape.
  for (const result of ['success', 'error', 'requeue_after'] as const) total.inc({ controller, result }, 0);
  errors.inc({ controller }, 0);
  terminalErrors.inc({ controller }, 0);

  return {
    observe(outcome, seconds, terminal) {
      total.inc({ controller, result: outcome });
      if (outcome === 'error') errors.inc({ controller });
      if (terminal) terminalErrors.inc({ controller });
      duration.observe({ controller }, seconds);
    },
    setDepth(n) {
      depth.set({ name: controller }, n);
    },
  };
}
