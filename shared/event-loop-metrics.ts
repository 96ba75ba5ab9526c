// Event-loop delay of a component, as a Prometheus histogram, in the registry its main.ts serves. prom-client's
// default metrics (registered by every component) already give nodejs_eventloop_lag_{min,max,mean,p50,p90,p99}_seconds
// from perf_hooks.monitorEventLoopDelay, reset at each scrape, so `nodejs_eventloop_lag_max_seconds` is the worst stall
// of the last scrape window. Those gauges lose what happened between two scrapers and cannot be aggregated over time;
// this histogram can: a sampler expects to run every SAMPLE_MS and observes how late it ran. A 3 s synchronous block
// is one observation of about 3 s, whenever it happened.
import { Histogram, type Registry } from 'prom-client';

const SAMPLE_MS = 100;
export const EVENT_LOOP_DELAY_METRIC = 'kruise_eventloop_delay_seconds';

/** Registers the histogram and starts its sampler (an unref'd timer: it never keeps a process alive). Returns stop. */
export function eventLoopDelayMetrics(registry: Registry, sampleMs = SAMPLE_MS): () => void {
  const delay = new Histogram({
    name: EVENT_LOOP_DELAY_METRIC,
    help: `How late a timer due every ${sampleMs} ms ran: the time the event loop was held by something else (an admission, a reconcile).`,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let due = performance.now() + sampleMs;
  const timer = setInterval(() => {
    const now = performance.now();
    delay.observe(Math.max(0, now - due) / 1000);
    due = now + sampleMs;
  }, sampleMs);
  timer.unref();
  return () => clearInterval(timer);
}
