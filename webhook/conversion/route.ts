// POST /convert: the CRD conversion webhook (ConversionReview, answered in review.ts). The body is read as the admission
// routes read theirs (admission/body.ts): application/json only, a size limit, and the server's shared byte budget.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { readJsonBody, type JsonParser } from '../admission/body.js';
import type { ByteBudget } from '../admission/byte-budget.js';
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
 * A list read in another version than the stored one converts every object of the page in one review: 500 objects
 * (client-go's page size) of ~60 KiB each. Larger pages fail with 413, which the apiserver reports on the list; never
 * more than the server's byte budget, so one review can always be buffered.
 */
export const CONVERSION_BODY_LIMIT = 32 * 1024 * 1024;

/** The decode step of each kind a conversion may carry (what upstream's typed decode checks). */
export const CONVERSION_DECODERS: ReadonlyMap<string, ObjectDecoder> = new Map(
  [SidecarSetDecoder, ImagePullJobDecoder, ImageListPullJobDecoder, NodeImageDecoder].map((d) => [d.kind, d]),
);

export interface ConversionRouteDeps {
  log: Logger;
  metrics: WebhookMetrics;
  bodyBudget: ByteBudget;
}

export function registerConversionRoute(app: FastifyInstance, deps: ConversionRouteDeps): void {
  const runtime = deps.metrics.forWebhook(CONVERSION_PATH);
  const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error') as JsonParser;
  const limit = Math.min(CONVERSION_BODY_LIMIT, deps.bodyBudget.cap);
  const log = deps.log.child({ webhook: 'convert' });
  app.route({
    method: 'POST',
    url: CONVERSION_PATH,
    // As admission/route.ts: the hook reads the body and answers, so Fastify's parser and the handler never run.
    onRequest: async (request, reply) => {
      const start = process.hrtime.bigint();
      runtime.inFlight.inc();
      try {
        const read = await readJsonBody(request.raw, limit, parse, deps.bodyBudget);
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
        return await reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(out.body);
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
