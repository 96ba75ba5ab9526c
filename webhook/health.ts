// Liveness, readiness and metrics endpoints, shared by the HTTPS admission app and the plain-HTTP health server.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { WebhookMetrics } from './metrics.js';
import { quietRequests } from '../shared/quiet-requests.js';

/** Returns null when ready, else the reason (e.g. "caches not synced: namespaces"). */
export type Readiness = () => string | null;
/** Returns null when alive, else the reason the kubelet should restart us (e.g. a cache silent for 15 min). */
export type Liveness = () => string | null;

export interface HealthDeps {
  readiness: Readiness;
  /** Absent: /healthz only says the server answers. */
  liveness?: Liveness;
  metrics: WebhookMetrics;
}

export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  // 500 as controller-runtime's healthz handler and the daemon's: the kubelet counts any code ≥ 400 as a failure.
  app.get('/healthz', async (req, reply) => {
    const reason = deps.liveness?.() ?? null;
    if (reason === null) return 'ok';
    req.log.warn({ reason }, 'liveness check failed');
    return reply.code(500).send(`unhealthy: ${reason}`);
  });
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
export function buildHealthApp(deps: HealthDeps & { log: Logger }): FastifyInstance {
  const app = Fastify({ loggerInstance: deps.log, ...quietRequests() }) as unknown as FastifyInstance;
  registerHealthRoutes(app, deps);
  return app;
}
