// One generic admission route: decode the envelope → run the handler → encode an AdmissionReview.
// Whatever a handler does (deny, throw, return garbage), the API server gets a well-formed 200 AdmissionReview that
// echoes apiVersion and uid; only a malformed review gets a bare HTTP 400.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AdmissionDeniedError } from '../../shared/errors.js';
import { decodeReview, type AdmissionRequest } from './review.js';
import { denied, errored, resultLabel, type AdmissionResult } from './response.js';
import type { WebhookMetrics } from '../metrics.js';
import { JSON_CONTENT_TYPE } from './encode.js';
import { readJsonBody, type JsonParser } from './body.js';
import type { ByteBudget, Charge } from './byte-budget.js';
import { encodeBoundedReview } from './reply-limit.js';
import { armWriteTimeout, chargeReply, chargeRequest } from './send-reply.js';

/** What a handler knows of a review beyond its content. */
export interface ReviewContext {
  /** The peer address the review came from: the apiserver, or anyone who reaches the port (budgets are charged to it). */
  source: string;
}

/** Handlers are pure over the request; the route logs at the boundary with the review's identity (style P11). */
export type AdmissionHandler = (req: AdmissionRequest, ctx?: ReviewContext) => AdmissionResult | Promise<AdmissionResult>;

export interface WebhookRoute {
  /** OpenKruise's path, e.g. /mutate-pod. */
  path: string;
  /** Short metric/log label, e.g. mutate-pod. */
  name: string;
  handler: AdmissionHandler;
}

/**
 * The apiserver caps a request at etcd's 1.5 MiB object size, and an AdmissionReview can carry both object and
 * oldObject, each JSON-encoded (controller-runtime's maxRequestSize reasoning arrives at 7 MiB with margin for
 * encoding overhead). readJsonBody enforces it; Fastify's 1 MiB default would have refused large pods/ConfigMaps.
 */
export const ADMISSION_BODY_LIMIT = 7 * 1024 * 1024;

/** Turns whatever a handler threw into a response; purposeful denials keep their code. */
export function resultFromError(err: unknown): AdmissionResult {
  if (err instanceof AdmissionDeniedError) return err.code === 403 ? denied(err.message) : errored(err.code, err);
  return errored(500, err instanceof Error ? new Error(`internal error: ${err.message}`) : new Error(`internal error: ${String(err)}`));
}

/** The per-review logger with the identity bindings of style P11. */
function reviewLog(log: Logger, route: WebhookRoute, req: AdmissionRequest): Logger {
  return log.child({
    webhook: route.name,
    uid: req.uid,
    kind: req.kind.kind,
    namespace: req.namespace,
    name: req.name,
    operation: req.operation,
    user: req.userInfo?.username,
  });
}

function isResult(r: unknown): r is AdmissionResult {
  return typeof r === 'object' && r !== null && typeof (r as AdmissionResult).allowed === 'boolean';
}

const REASONS = { 400: 'Bad Request', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 503: 'Service Unavailable' } as const;

export interface AdmissionRouteDeps {
  log: Logger;
  metrics: WebhookMetrics;
  /** Shared by every route of the server (admission/byte-budget.ts): each request's body and reply bytes. */
  bodyBudget: ByteBudget;
  /** A reply not handed to the kernel within this is destroyed with its connection (admission/send-reply.ts). */
  replyWriteTimeoutMs: number;
}

export function registerAdmissionRoute(app: FastifyInstance, route: WebhookRoute, deps: AdmissionRouteDeps): void {
  // One label object per result, built once: prom-client then only hashes it, instead of merging start and end labels.
  const labels = new Map<string, { webhook: string; result: string }>();
  const labelsFor = (result: string) => {
    let l = labels.get(result);
    if (!l) labels.set(result, (l = { webhook: route.name, result }));
    return l;
  };
  const runtime = deps.metrics.forWebhook(route.path);
  // Fastify's own JSON parser, with the app's poisoning policy.
  const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error') as JsonParser;

  const refuse = (request: FastifyRequest, reply: FastifyReply, code: 400 | 413 | 415 | 503, message: string) => {
    deps.metrics.admissionTotal.inc(labelsFor(code === 503 ? 'overloaded' : 'malformed'));
    // A body refused before its end is not read on: `Connection: close` makes Node end and destroy the socket once
    // the answer is written, instead of draining the rest (up to the request timeout) to reuse the connection.
    if (!request.raw.complete) reply.header('connection', 'close');
    // client-go's rest client (the apiserver's webhook client) retries a 503 that carries Retry-After, within the
    // webhook's timeout: an overload refusal then costs the apiserver a second, not a failed admission.
    if (code === 503) reply.header('retry-after', '1');
    return reply.code(code).send({ error: REASONS[code], message });
  };

  const admit = async (body: unknown, request: FastifyRequest, reply: FastifyReply, charge: Charge) => {
    const decoded = decodeReview(body);
    if (!decoded.ok) return refuse(request, reply, 400, decoded.message);
    const { apiVersion, request: req } = decoded.review;
    // The review logger (pino serialises its bindings up front) is made only when a line is written: at info level an
    // admitted review writes none.
    const start = process.hrtime.bigint();
    let result: AdmissionResult;
    try {
      const r = await route.handler(req, { source: request.socket.remoteAddress ?? 'unknown' });
      result = isResult(r) ? r : errored(500, new Error('internal error: handler returned no AdmissionResponse'));
    } catch (err) {
      result = resultFromError(err);
      if (!(err instanceof AdmissionDeniedError)) reviewLog(deps.log, route, req).error({ err }, 'admission handler failed');
    }
    const label = resultLabel(result);
    deps.metrics.admissionDuration.observe(labelsFor(label), Number(process.hrtime.bigint() - start) / 1e9);
    deps.metrics.admissionTotal.inc(labelsFor(label));
    if (label === 'allowed' || label === 'patched') {
      if (deps.log.isLevelEnabled('debug')) reviewLog(deps.log, route, req).debug({ result: label }, 'admitted');
    } else reviewLog(deps.log, route, req).info({ result: label, code: result.status?.code, message: result.status?.message }, 'refused');
    const { bytes, refused } = encodeBoundedReview(apiVersion, req.uid, result);
    if (refused !== undefined) reviewLog(deps.log, route, req).warn({ replyBytes: refused }, 'reply too large for the apiserver; refused instead');
    if (!chargeReply(charge, bytes.length)) return refuse(request, reply, 503, `too many reply bytes in flight: this ${bytes.length}-byte reply does not fit the server's byte budget or this client's share of it; retry`);
    // Not awaited: a reply is a thenable settled when the response finishes, which an unread one never does.
    void reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(bytes);
    armWriteTimeout(reply.raw, deps.replyWriteTimeoutMs);
    return reply;
  };

  app.route({
    method: 'POST',
    url: route.path,
    // The hook reads the body (readJsonBody, which says why not Fastify's content-type parser) and answers; Fastify
    // stops there, so neither its parser nor the handler below ever runs for this route.
    onRequest: async (request, reply) => {
      const start = process.hrtime.bigint();
      runtime.inFlight.inc();
      try {
        const charge = chargeRequest(request, reply, deps.bodyBudget);
        const read = await readJsonBody(request.raw, ADMISSION_BODY_LIMIT, parse, charge);
        return await (read.ok ? admit(read.body, request, reply, charge) : refuse(request, reply, read.code, read.message));
      } finally {
        runtime.inFlight.dec();
        runtime.latency.observe(Number(process.hrtime.bigint() - start) / 1e9);
        runtime.requests(reply.statusCode).inc();
      }
    },
    handler: async () => {
      throw new Error(`unreachable: the onRequest hook of ${route.path} answers every request`);
    },
  });
}
