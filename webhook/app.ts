// buildApp(deps): the admission server as a value — no listen, no env, no signals (style P1; fastify/demo app.ts).
// Only the admission routes and the CRD conversion route (/convert): probes and metrics are on the plain-HTTP health server (health.ts), bound apart, so the
// port the apiserver reaches through the Service exposes nothing else (review M6).
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { WEBHOOK_SERVER_DEFAULTS, type WebhookServerLimits } from '../shared/config.js';
import { registerAdmissionRoute, type WebhookRoute } from './admission/route.js';
import { byteBudget, type BudgetGroup, type ByteBudget } from './admission/byte-budget.js';
import { limitConnections } from './connection-limits.js';
import { CONVERSION_PATH, registerConversionRoute } from './conversion/route.js';
import type { WebhookMetrics } from './metrics.js';
import type { DrainState } from './drain.js';
import { TLS_OPTIONS } from './tls-options.js';
import type { AdmissionExecutor } from './pool/executor.js';
import { inThreadExecutor } from './pool/in-thread.js';
import { quietRequests } from '../shared/quiet-requests.js';

export interface AppDeps {
  log: Logger;
  /**
   * The explicit handler table (webhook/handlers/index.ts in production; tiny fakes in tests): its paths are the
   * routes served; its handlers run in-thread unless `executor` is given.
   */
  routes: readonly WebhookRoute[];
  /**
   * What answers each body: the worker pool in production (webhook/pool/pool.ts, whose workers run makeRoutes'
   * handlers); default the routes' handlers on this thread (unit tests).
   */
  executor?: AdmissionExecutor;
  metrics: WebhookMetrics;
  /** Initial serving key pair; when absent the app speaks plain HTTP (tests via inject). */
  tls?: { key: string; cert: string };
  /** Timeouts and caps (review H1); default WEBHOOK_SERVER_DEFAULTS, whose doc says why each value. */
  limits?: WebhookServerLimits;
  /** The bytes requests hold (bodies and replies); default serverBudget(limits). Tests pass one to watch. */
  bodyBudget?: ByteBudget;
  /** Once draining (webhook/drain.ts), every answer carries `Connection: close`. */
  drain?: DrainState;
}

/**
 * Node's server options for the limits: the request and headers timeouts are checked on a timer, every
 * connectionsCheckingInterval (Node's default 30 s would let a slow body live up to twice the 30 s timeout).
 */
function nodeServerOptions(l: WebhookServerLimits) {
  return {
    requestTimeout: l.requestTimeoutMs,
    headersTimeout: l.headersTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.ceil(Math.min(l.headersTimeoutMs, l.requestTimeoutMs) / 4)),
  };
}

/** The byte budget of the limits: the whole, each source's share, and the reserve for small requests (≤ 1 MiB). */
export function serverBudget(l: WebhookServerLimits): ByteBudget {
  return byteBudget(l.maxInFlightBodyBytes, { perSource: l.maxInFlightBodyBytesPerSource, smallRequest: 1024 * 1024, smallReserve: l.smallRequestReserveBytes });
}

export function buildApp(deps: AppDeps): FastifyInstance {
  const limits = deps.limits ?? WEBHOOK_SERVER_DEFAULTS;
  const bodyBudget = deps.bodyBudget ?? serverBudget(limits);
  const conversionGroup: BudgetGroup = { name: 'convert', cap: limits.maxInFlightConversionBytes };
  const server = nodeServerOptions(limits);
  const app = Fastify({
    loggerInstance: deps.log,
    // route.ts logs each review with its identity bindings; Fastify's per-request lines would only add noise.
    ...quietRequests(),
    // Admission bodies are arbitrary Kubernetes objects; a __proto__ key there is an attack, not data. The admission
    // routes parse with this policy too (getDefaultJsonParser from initialConfig, admission/route.ts).
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // A TCP connection that never completes its handshake is not yet an HTTP connection: the headers timeout cannot
    // see it, Node's handshakeTimeout (120 s by default) does.
    ...(deps.tls
      ? { https: { ...TLS_OPTIONS, ...server, handshakeTimeout: limits.headersTimeoutMs, key: deps.tls.key, cert: deps.tls.cert } }
      : { http: server }),
  }) as unknown as FastifyInstance;
  limitConnections(app.server, { max: limits.maxConnections, perSource: limits.maxConnectionsPerSource });

  if (deps.drain) {
    const drain = deps.drain;
    app.addHook('onRequest', (_request, reply, done) => {
      if (drain.draining) reply.header('connection', 'close');
      done();
    });
  }

  const executor = deps.executor ?? inThreadExecutor(deps.routes);
  const seen = new Set<string>([CONVERSION_PATH]);
  for (const route of deps.routes) {
    if (seen.has(route.path)) throw new Error(`duplicate admission route ${route.path}`);
    seen.add(route.path);
    registerAdmissionRoute(app, route, { log: deps.log, metrics: deps.metrics, bodyBudget, replyWriteTimeoutMs: limits.replyWriteTimeoutMs, executor });
  }
  registerConversionRoute(app, { log: deps.log, metrics: deps.metrics, bodyBudget, group: conversionGroup, replyWriteTimeoutMs: limits.replyWriteTimeoutMs, executor });

  // An unknown path or a wrong method is never the apiserver: answer and close, so such requests cannot keep a
  // connection (and its maxConnections slot) alive between them (review N-H4).
  app.setNotFoundHandler((request, reply) => {
    reply.header('connection', 'close');
    return reply.code(404).send({ error: 'Not Found', message: `Route ${request.method}:${request.url.slice(0, 200)} not found` });
  });

  // Errors Fastify raises before a handler runs keep their 4xx status (the admission routes answer their own body
  // errors, admission/body.ts); anything else is ours and is reported without leaking internals.
  app.setErrorHandler((err: { statusCode?: number; message: string }, _request, reply) => {
    const code = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (code === 500) deps.log.error({ err }, 'unhandled error in webhook server');
    reply.header('connection', 'close');
    return reply.code(code).send({ error: code === 500 ? 'Internal Server Error' : 'Bad Request', message: code === 500 ? 'internal error' : err.message });
  });
  return app;
}
