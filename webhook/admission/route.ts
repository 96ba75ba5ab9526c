// One generic admission route: the body is read here, on the main thread (body.ts: limits and the byte budget), and
// answered by the executor (webhook/pool/: a worker thread with a deadline in production; admission/answer.ts does
// the parse, envelope decode, handler and encode there). This file turns the outcome into the reply, the metrics and
// the log line. Every decoded review gets a 200 AdmissionReview carrying its uid, even past the deadline; only a
// malformed review gets a bare HTTP 400. The request's body and reply bytes stay charged to the byte budget until
// its response closes (admission/send-reply.ts, review N-H2).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { errored, type ResultLabel } from './response.js';
import type { WebhookMetrics } from '../metrics.js';
import { encodeReview, JSON_CONTENT_TYPE } from './encode.js';
import { readBody } from './body.js';
import type { ByteBudget, Charge } from './byte-budget.js';
import { armWriteTimeout, chargeReply, chargeRequest } from './send-reply.js';
import type { Answer, AdmissionHandler } from './answer.js';
import type { AdmissionExecutor, Unanswered } from '../pool/executor.js';
import type { ReviewIdentity } from '../pool/protocol.js';
import { sourceAddress } from '../source-address.js';

export { resultFromError, type AdmissionHandler, type ReviewContext } from './answer.js';

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
 * encoding overhead). readBody enforces it; Fastify's 1 MiB default would have refused large pods/ConfigMaps.
 */
export const ADMISSION_BODY_LIMIT = 7 * 1024 * 1024;

/** What the reply says when the executor could not answer: past the deadline, or the worker died under it. */
export function unansweredMessage(u: Unanswered): string {
  return u.outcome.kind === 'deadline'
    ? `internal error: the admission review was not answered within its deadline of ${u.outcome.ms} ms (ADMISSION_DEADLINE_MS); its worker was replaced`
    : `internal error: ${u.outcome.message}`;
}

/** The per-review logger with the identity bindings of style P11. */
const reviewLog = (log: Logger, route: WebhookRoute, id: ReviewIdentity): Logger => log.child({ webhook: route.name, ...id });

const REASONS = { 400: 'Bad Request', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 503: 'Service Unavailable' } as const;

export interface AdmissionRouteDeps {
  log: Logger;
  metrics: WebhookMetrics;
  /** Shared by every route of the server (admission/byte-budget.ts): each request's body and reply bytes. */
  bodyBudget: ByteBudget;
  /** A reply not handed to the kernel within this is destroyed with its connection (admission/send-reply.ts). */
  replyWriteTimeoutMs: number;
  executor: AdmissionExecutor;
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

  const observe = (label: ResultLabel, seconds: number) => {
    deps.metrics.admissionDuration.observe(labelsFor(label), seconds);
    deps.metrics.admissionTotal.inc(labelsFor(label));
  };

  /** The reply bytes of an answered review, after its metrics and log line. */
  const answered = (a: Answer): Buffer => {
    const o = a.outcome;
    if (o.kind !== 'admitted') throw new Error(`unreachable: a ${o.kind} outcome on ${route.path}`);
    // The review logger (pino serialises its bindings up front) is made only when a line is written: at info level an
    // admitted review writes none.
    if (o.error !== undefined) reviewLog(deps.log, route, o.identity).error({ err: { message: o.error } }, 'admission handler failed');
    if (o.replyRefused !== undefined) reviewLog(deps.log, route, o.identity).warn({ replyBytes: o.replyRefused }, 'reply too large for the apiserver; refused instead');
    observe(o.label, o.seconds);
    if (o.label === 'allowed' || o.label === 'patched') {
      if (deps.log.isLevelEnabled('debug')) reviewLog(deps.log, route, o.identity).debug({ result: o.label }, 'admitted');
    } else reviewLog(deps.log, route, o.identity).info({ result: o.label, code: o.status?.code, message: o.status?.message }, 'refused');
    return Buffer.from(a.body.buffer, a.body.byteOffset, a.body.byteLength);
  };

  const respond = (a: Answer | Unanswered, request: FastifyRequest, reply: FastifyReply, charge: Charge, started: bigint) => {
    const o = a.outcome;
    if (o.kind === 'refuse') return refuse(request, reply, o.code, o.message);
    let bytes: Buffer;
    if (o.kind === 'admitted' || o.kind === 'converted') bytes = answered(a as Answer);
    else {
      const message = unansweredMessage(a as Unanswered);
      observe('errored', Number(process.hrtime.bigint() - started) / 1e9);
      deps.log.warn({ webhook: route.name, uid: o.envelope?.uid, message }, 'refused');
      // Without a decoded envelope there is no uid to answer for: the apiserver sees a failed call (failurePolicy).
      if (o.envelope?.kind !== 'admit') return reply.code(500).send({ error: 'Internal Server Error', message });
      bytes = encodeReview(o.envelope.apiVersion, o.envelope.uid, errored(500, new Error(message)));
    }
    if (!chargeReply(charge, bytes.length)) return refuse(request, reply, 503, `too many reply bytes in flight: this ${bytes.length}-byte reply does not fit the server's byte budget or this client's share of it; retry`);
    // Not awaited: a reply is a thenable settled when the response finishes, which an unread one never does.
    void reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(bytes);
    armWriteTimeout(reply.raw, deps.replyWriteTimeoutMs);
    return reply;
  };

  app.route({
    method: 'POST',
    url: route.path,
    // The hook reads the body (readBody, body.ts says why not Fastify's content-type parser) and answers; Fastify
    // stops there, so neither its parser nor the handler below ever runs for this route.
    onRequest: async (request, reply) => {
      const start = process.hrtime.bigint();
      runtime.inFlight.inc();
      try {
        const charge = chargeRequest(request, reply, deps.bodyBudget);
        const read = await readBody(request.raw, ADMISSION_BODY_LIMIT, charge);
        if (!read.ok) return await refuse(request, reply, read.code, read.message);
        const answer = await deps.executor.run('admit', route.path, read.bytes, sourceAddress(request.raw.socket));
        return await respond(answer, request, reply, charge, start);
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
