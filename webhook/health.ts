// Liveness, readiness and metrics endpoints, shared by the HTTPS admission app and the plain-HTTP health server.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { WebhookMetrics } from './metrics.js';

/** Returns null when ready, else the reason (e.g. "caches not synced: namespaces"). */
export type Readiness = () => string | null;

export function registerHealthRoutes(app: FastifyInstance, deps: { readiness: Readiness; metrics: WebhookMetrics }): void {
  app.get('/healthz', async () => 'ok');
  app.get('/readyz', async (_req, reply) => {
    const reason = deps.readiness();
    return reason === null ? 'ok' : reply.code(503).send(`not ready: ${reason}`);
  });
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
}

/** Plain HTTP on HEALTH_PORT so kubelet probes and Prometheus need no client certificate trust. */
export function buildHealthApp(deps: { log: Logger; readiness: Readiness; metrics: WebhookMetrics }): FastifyInstance {
  const app = Fastify({ loggerInstance: deps.log, disableRequestLogging: true }) as unknown as FastifyInstance;
  registerHealthRoutes(app, deps);
  return app;
}
