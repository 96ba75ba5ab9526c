// POST /convert: the CRD conversion webhook (ConversionReview, answered in review.ts). The body is read as the admission
// routes read theirs (admission/body.ts): application/json only, a size limit, and the server's shared byte budget.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { readJsonBody, type JsonParser } from '../admission/body.js';
import type { BudgetGroup, ByteBudget } from '../admission/byte-budget.js';
import { armWriteTimeout, chargeReply, chargeRequest } from '../admission/send-reply.js';
import {
  ImageListPullJobDecoder,
  ImagePullJobDecoder,
  NodeImageDecoder,
  SidecarSetDecoder,
  type ObjectDecoder,
} from '../admission/decode-object.js';
import { JSON_CONTENT_TYPE } from '../admission/encode.js';
import type { WebhookMetrics } from '../metrics.js';
import { answerConversionReview, decodeConversionReview } from './review.js';

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

/** The decode step of each kind a conversion may carry (what upstream's typed decode checks). */
export const CONVERSION_DECODERS: ReadonlyMap<string, ObjectDecoder> = new Map(
  [SidecarSetDecoder, ImagePullJobDecoder, ImageListPullJobDecoder, NodeImageDecoder].map((d) => [d.kind, d]),
);

export interface ConversionRouteDeps {
  log: Logger;
  metrics: WebhookMetrics;
  bodyBudget: ByteBudget;
  /** All /convert requests together hold at most this share of the budget (body and reply): they cannot starve admission. */
  group: BudgetGroup;
  replyWriteTimeoutMs: number;
}

export function registerConversionRoute(app: FastifyInstance, deps: ConversionRouteDeps): void {
  const runtime = deps.metrics.forWebhook(CONVERSION_PATH);
  const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error') as JsonParser;
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
        const read = await readJsonBody(request.raw, limit, parse, charge);
        const decoded = read.ok ? decodeConversionReview(read.body) : undefined;
        if (!read.ok || !decoded?.ok) {
          const [code, message] = read.ok ? [400, decoded && !decoded.ok ? decoded.message : ''] : [read.code, read.message];
          log.info({ code, message }, 'conversion review refused');
          if (!request.raw.complete) reply.header('connection', 'close');
          if (code === 503) reply.header('retry-after', '1');
          // controller-runtime answers an undecodable review with a bare status and no body.
          return await reply.code(code).send();
        }
        const out = answerConversionReview(decoded, CONVERSION_DECODERS);
        if (out.failure !== undefined) log.info({ uid: decoded.request.uid, desiredAPIVersion: decoded.request.desiredAPIVersion, message: out.failure }, 'conversion failed');
        else if (log.isLevelEnabled('debug')) log.debug({ uid: decoded.request.uid, desiredAPIVersion: decoded.request.desiredAPIVersion, objects: out.converted }, 'converted');
        const bytes = Buffer.from(out.body);
        if (!chargeReply(charge, bytes.length)) {
          log.info({ uid: decoded.request.uid, replyBytes: bytes.length }, 'conversion reply does not fit the byte budget; refused with 503');
          return await reply.code(503).header('retry-after', '1').send();
        }
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
