// The admission benchmark's middle row: the kruise-ts app (buildApp, production logger, the admission route with its
// own body reading, envelope decoding, metrics and reply encoding) with an allow-all handler in place of the handler
// table. Between it and the bare Fastify row is what the app's frame costs; between it and server-kruise.ts, what the
// injection itself costs.
import { allowed } from '../../webhook/admission/response.js';
import { createLogger } from '../../shared/log.js';
import { buildApp } from '../../webhook/app.js';
import { createMetrics } from '../../webhook/metrics.js';
import { readTls, serve } from './serve.js';

const app = buildApp({
  log: createLogger({ level: 'info', name: 'kruise-webhook' }),
  metrics: createMetrics(),
  tls: await readTls(),
  routes: [{ path: '/mutate-pod', name: 'mutate-pod', handler: () => allowed() }],
});
await serve(app);
