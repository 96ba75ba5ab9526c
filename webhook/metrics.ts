// Prometheus metrics of the webhook, on an explicit registry (no global default registry touched by imports).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { eventLoopDelayMetrics } from '../shared/event-loop-metrics.js';

/** controller-runtime's per-webhook series, bound to one path (label children made once, not per request). */
export interface WebhookRuntimeMetrics {
  inFlight: Gauge.Internal<'webhook'>;
  latency: Histogram.Internal<'webhook'>;
  requests(code: number): Counter.Internal;
}

export interface WebhookMetrics {
  registry: Registry;
  /**
   * controller-runtime's webhook metrics under its names and labels (`webhook` = the path, `code` = the HTTP status),
   * so dashboards and alerts written for OpenKruise's manager keep working.
   */
  forWebhook(path: string): WebhookRuntimeMetrics;
  admissionTotal: Counter<'webhook' | 'result'>;
  admissionDuration: Histogram<'webhook' | 'result'>;
  /** Unix seconds at which the serving certificate expires (0 when none is loaded). */
  certExpiry: Gauge;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): WebhookMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics) {
    collectDefaultMetrics({ register: registry });
    eventLoopDelayMetrics(registry);
  }
  const requests = new Counter({
    name: 'controller_runtime_webhook_requests_total',
    help: 'Total number of admission requests by HTTP status code.',
    labelNames: ['webhook', 'code'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'controller_runtime_webhook_latency_seconds',
    help: 'Histogram of the latency of processing admission requests',
    labelNames: ['webhook'],
    // controller-runtime's buckets start at 5 ms; ours keep the sub-millisecond range this webhook lives in.
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: 'controller_runtime_webhook_requests_in_flight',
    help: 'Current number of admission requests being served.',
    labelNames: ['webhook'],
    registers: [registry],
  });
  const forWebhook = (webhook: string): WebhookRuntimeMetrics => {
    const byCode = new Map<number, Counter.Internal>();
    return {
      inFlight: inFlight.labels({ webhook }),
      latency: latency.labels({ webhook }),
      requests: (code) => {
        let c = byCode.get(code);
        if (!c) byCode.set(code, (c = requests.labels({ webhook, code: String(code) })));
        return c;
      },
    };
  };
  return {
    registry,
    forWebhook,
    admissionTotal: new Counter({
      name: 'kruise_webhook_admission_requests_total',
      help: 'Admission reviews handled, by webhook and result (allowed|patched|denied|errored|malformed|overloaded).',
      labelNames: ['webhook', 'result'],
      registers: [registry],
    }),
    admissionDuration: new Histogram({
      name: 'kruise_webhook_admission_duration_seconds',
      help: 'Time from decoded review to encoded response, by webhook and result.',
      labelNames: ['webhook', 'result'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers: [registry],
    }),
    certExpiry: new Gauge({
      name: 'kruise_webhook_serving_cert_expiry_timestamp_seconds',
      help: 'NotAfter of the serving certificate currently loaded, as Unix seconds.',
      registers: [registry],
    }),
  };
}
