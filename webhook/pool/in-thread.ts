// The executor that runs a route table on the calling thread (no deadline, no isolation): for unit tests that build
// the app with tiny handlers, and wherever a thread per request would be pointless. The functions are the workers'.
import Fastify from 'fastify';
import { answerAdmission } from '../admission/answer.js';
import type { JsonParser } from '../admission/body.js';
import type { WebhookRoute } from '../admission/route.js';
import { answerConversion, CONVERSION_DECODERS } from '../conversion/answer.js';
import type { AdmissionExecutor } from './executor.js';

export function inThreadExecutor(routes: readonly WebhookRoute[]): AdmissionExecutor {
  const handlers = new Map(routes.map((r) => [r.path, r.handler]));
  const parse = Fastify({ onProtoPoisoning: 'error', onConstructorPoisoning: 'error' }).getDefaultJsonParser('error', 'error') as JsonParser;
  return {
    run: async (kind, path, bytes, source = 'unknown') => {
      if (kind === 'convert') return answerConversion(CONVERSION_DECODERS, bytes, parse);
      const handler = handlers.get(path);
      if (!handler) return { outcome: { kind: 'crashed', message: `no admission handler for ${path}` } };
      return answerAdmission(handler, bytes, parse, { source });
    },
    close: async () => {},
  };
}
