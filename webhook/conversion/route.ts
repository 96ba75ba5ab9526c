// POST /convert: the CRD conversion webhook (ConversionReview). The body is read as the admission routes read theirs
// (admission/body.ts): application/json only, a size limit, the byte budget (this source's share and the /convert
// group's, held until the response closes: admission/send-reply.ts); it is answered by the executor (a worker with a
// deadline, webhook/pool/; conversion/answer.ts runs there).
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { readBody } from '../admission/body.js';
import type { BudgetGroup, ByteBudget } from '../admission/byte-budget.js';
import { armWriteTimeout, chargeReply, chargeRequest } from '../admission/send-reply.js';
import { JSON_CONTENT_TYPE } from '../admission/encode.js';
import type { Answer } from '../admission/answer.js';
import type { WebhookMetrics } from '../metrics.js';
import type { AdmissionExecutor, Unanswered } from '../pool/executor.js';
import { sourceAddress } from '../source-address.js';
import { conversionFailure } from './answer.js';

export { CONVERSION_DECODERS } from './answer.js';

export const CONVERSION_PATH = '/convert';

/**
 * 7 MiB, the limit controller-runtime puts on admission requests (review N-M1; 32 MiB before; its conversion handler
 * reads without one, docs/compatibility.md).
 * A list read in another version than the stored one converts the objects of a page in one review; the apiserver
 * stores each object within etcd's 1.5 MiB, and a page is client-go's 500 objects at most, so only pages of objects
 * averaging over ~14 KiB reach it. Larger pages fail with 413, which the apiserver reports on that list (the client
 * can page smaller); no kruise controller lists in another version than the stored one. Never more than the
 * conversion share of the byte budget, so one review can always be buffered.
 */
export const CONVERSION_BODY_LIMIT = 7 * 1024 * 1024;

export interface ConversionRouteDeps {
  log: Logger;
  metrics: WebhookMetrics;
  bodyBudget: ByteBudget;
  /** All /convert requests together hold at most this share of the budget (body and reply): they cannot starve admission. */
  group: BudgetGroup;
  replyWriteTimeoutMs: number;
  executor: AdmissionExecutor;
}

/** The Failure message of a review past its deadline or whose worker died. */
function unansweredFailure(u: Unanswered): string {
  return u.outcome.kind === 'deadline'
    ? `internal error: the conversion was not answered within its deadline of ${u.outcome.ms} ms (ADMISSION_DEADLINE_MS); its worker was replaced`
    : `internal error: ${u.outcome.message}`;
}

export function registerConversionRoute(app: FastifyInstance, deps: ConversionRouteDeps): void {
  const runtime = deps.metrics.forWebhook(CONVERSION_PATH);
  const limit = Math.min(CONVERSION_BODY_LIMIT, deps.bodyBudget.cap, deps.group.cap);
  const log = deps.log.child({ webhook: 'convert' });
  app.route({
    method: 'POST',
    url: CONVERSION_PATH,
    // As admission/route.ts: the hook reads the body and answers, so Fastify's parser and the handler never run.
    onRequest: async (request, reply) => {
      const start = process.hrtime.bigint();
      runtime.inFlight.inc();
      try {
        const charge = chargeRequest(request, reply, deps.bodyBudget, deps.group);
        const read = await readBody(request.raw, limit, charge);
        const answer = read.ok ? await deps.executor.run('convert', CONVERSION_PATH, read.bytes, sourceAddress(request.raw.socket)) : undefined;
        const o = answer?.outcome;
        if (!read.ok || o?.kind === 'refuse') {
          const [code, message] = read.ok ? [400, o?.kind === 'refuse' ? o.message : ''] : [read.code, read.message];
          log.info({ code, message }, 'conversion review refused');
          if (!request.raw.complete) reply.header('connection', 'close');
          if (code === 503) reply.header('retry-after', '1');
          // controller-runtime answers an undecodable review with a bare status and no body.
          return await reply.code(code).send();
        }
        let bytes: Buffer;
        if (o?.kind === 'converted') {
          if (o.failure !== undefined) log.info({ uid: o.uid, desiredAPIVersion: o.desiredAPIVersion, message: o.failure }, 'conversion failed');
          else if (log.isLevelEnabled('debug')) log.debug({ uid: o.uid, desiredAPIVersion: o.desiredAPIVersion, objects: o.objects }, 'converted');
          const body = (answer as Answer).body;
          bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
        } else {
          // Past the deadline (or the worker died): a Failure result, as for any conversion that fails, when the
          // review's uid is known; else a bare 500 (the apiserver reports the list as failed either way).
          const message = unansweredFailure(answer as Unanswered);
          const envelope = (answer as Unanswered).outcome.envelope;
          log.warn({ uid: envelope?.uid, message }, 'conversion failed');
          if (envelope?.kind !== 'convert') return await reply.code(500).send();
          bytes = Buffer.from(conversionFailure(envelope, message));
        }
        if (!chargeReply(charge, bytes.length)) {
          log.info({ replyBytes: bytes.length }, 'conversion reply does not fit the byte budget; refused with 503');
          return await reply.code(503).header('retry-after', '1').send();
        }
        // Not awaited: a reply is a thenable settled when the response finishes, which an unread one never does.
        void reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(bytes);
        armWriteTimeout(reply.raw, deps.replyWriteTimeoutMs);
        return reply;
      } finally {
        runtime.inFlight.dec();
        runtime.latency.observe(Number(process.hrtime.bigint() - start) / 1e9);
        runtime.requests(reply.statusCode).inc();
      }
    },
    handler: async () => {
      throw new Error(`unreachable: the onRequest hook of ${CONVERSION_PATH} answers every request`);
    },
  });
}
