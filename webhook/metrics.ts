// Prometheus metrics of the webhook, on an explicit registry (no global default registry touched by imports).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface WebhookMetrics {
  registry: Registry;
  admissionTotal: Counter<'webhook' | 'result'>;
  admissionDuration: Histogram<'webhook' | 'result'>;
  /** Unix seconds at which the serving certificate expires (0 when none is loaded). */
  certExpiry: Gauge;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): WebhookMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    admissionTotal: new Counter({
      name: 'kruise_webhook_admission_requests_total',
      help: 'Admission reviews handled, by webhook and result (allowed|patched|denied|errored|malformed).',
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
