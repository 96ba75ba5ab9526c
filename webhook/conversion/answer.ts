// One ConversionReview from its body bytes to its reply bytes (parse, decode, convert, encode): run by an admission
// worker (webhook/pool/) or in-thread, as admission/answer.ts is for the admission routes.
import { parseJson, type Answer } from '../admission/answer.js';
import type { JsonParser } from '../admission/body.js';
import {
  ImageListPullJobDecoder,
  ImagePullJobDecoder,
  NodeImageDecoder,
  SidecarSetDecoder,
  type ObjectDecoder,
} from '../admission/decode-object.js';
import type { Envelope } from '../pool/protocol.js';
import { answerConversionReview, decodeConversionReview } from './review.js';

const EMPTY = new Uint8Array(0);

/** The decode step of each kind a conversion may carry (what upstream's typed decode checks). */
export const CONVERSION_DECODERS: ReadonlyMap<string, ObjectDecoder> = new Map(
  [SidecarSetDecoder, ImagePullJobDecoder, ImageListPullJobDecoder, NodeImageDecoder].map((d) => [d.kind, d]),
);

export function answerConversion(decoders: ReadonlyMap<string, ObjectDecoder>, bytes: Uint8Array, parse: JsonParser, onEnvelope?: (e: Envelope) => void): Answer {
  const parsed = parseJson(parse, bytes);
  const decoded = parsed.ok ? decodeConversionReview(parsed.value) : undefined;
  if (!parsed.ok || !decoded?.ok) return { outcome: { kind: 'refuse', code: 400, message: parsed.ok ? (decoded && !decoded.ok ? decoded.message : '') : parsed.message }, body: EMPTY };
  const { request } = decoded;
  onEnvelope?.({ kind: 'convert', uid: request.uid, ...(decoded.apiVersion ? { apiVersion: decoded.apiVersion } : {}), ...(decoded.kind ? { reviewKind: decoded.kind } : {}) });
  const out = answerConversionReview(decoded, decoders);
  return {
    outcome: { kind: 'converted', uid: request.uid, desiredAPIVersion: request.desiredAPIVersion, objects: out.converted, ...(out.failure !== undefined ? { failure: out.failure } : {}) },
    body: Buffer.from(out.body),
  };
}

/** A Failure ConversionReview for `envelope` (as answerConversionReview writes one), e.g. past the deadline. */
export function conversionFailure(envelope: Extract<Envelope, { kind: 'convert' }> | undefined, message: string): Buffer {
  const response = { uid: envelope?.uid ?? '', convertedObjects: null, result: { metadata: {}, status: 'Failure', message } };
  return Buffer.from(JSON.stringify({ ...(envelope?.reviewKind ? { kind: envelope.reviewKind } : {}), ...(envelope?.apiVersion ? { apiVersion: envelope.apiVersion } : {}), response }));
}
