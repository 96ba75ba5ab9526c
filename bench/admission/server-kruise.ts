// The admission benchmark's kruise-ts server: buildApp with the production handler table and the production logger
// at info (to stdout, which the benchmark discards), 100 SidecarSets in static caches, 10 of them selecting the pods.
import { createLogger } from '../../shared/log.js';
import { buildApp } from '../../webhook/app.js';
import { makeRoutes } from '../../webhook/handlers/index.js';
import { createMetrics } from '../../webhook/metrics.js';
import { routeDeps } from './fixtures.js';
import { readTls, serve } from './serve.js';

const app = buildApp({
  log: createLogger({ level: 'info', name: 'kruise-webhook' }),
  metrics: createMetrics(),
  tls: await readTls(),
  // The real clock: the hash annotations' timestamp changes every second, as in production.
  routes: makeRoutes(routeDeps(() => new Date())),
});
await serve(app);
