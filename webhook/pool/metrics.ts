// The admission pool's metrics, on the webhook's registry: its size and load read at each scrape, and the deadlines
// and worker restarts counted as they happen. The admission metrics themselves stay on main (metrics.ts, route.ts).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { PoolEvents, PoolStats } from './pool.js';

export function poolMetrics(registry: Registry, stats: () => PoolStats | undefined): PoolEvents {
  const gauge = (name: string, help: string, read: (s: PoolStats) => number) => new Gauge({
    name, help, registers: [registry],
    collect() { const s = stats(); this.set(s ? read(s) : 0); },
  });
  gauge('kruise_webhook_pool_workers', 'Admission worker threads running (ready or starting).', (s) => s.workers);
  gauge('kruise_webhook_pool_busy_workers', 'Admission workers answering a request.', (s) => s.busy);
  gauge('kruise_webhook_pool_queue_length', 'Admission and conversion requests waiting for a worker, or pipelined behind the one a worker runs.', (s) => s.queued);
  const deadline = new Counter({ name: 'kruise_webhook_pool_deadline_exceeded_total', help: 'Requests answered as past their deadline (ADMISSION_DEADLINE_MS); each replaced its worker.', registers: [registry] });
  const restarts = new Counter({ name: 'kruise_webhook_pool_worker_restarts_total', help: 'Admission workers replaced (past a deadline, or exited).', registers: [registry] });
  return { deadlineExceeded: () => deadline.inc(), restart: () => restarts.inc() };
}
