// One admission request from its body bytes to its reply bytes: parse, envelope decode, the handler, encode. The same
// function runs in an admission worker (webhook/pool/worker-runtime.ts) and in-thread (pool/in-thread.ts, for tests and
// the CLI's one decision path); route.ts, on the main thread, only reads bodies, observes metrics, logs and replies.
import { AdmissionDeniedError } from '../../shared/errors.js';
import type { Envelope, Outcome } from '../pool/protocol.js';
import { decodeReview, type AdmissionRequest } from './review.js';
import { denied, errored, resultLabel, type AdmissionResult } from './response.js';
import type { JsonParser } from './body.js';
import { encodeBoundedReview } from './reply-limit.js';

/** What a handler knows of a review beyond its content. */
export interface ReviewContext {
  /** The peer address the review came from: the apiserver, or anyone who reaches the port (budgets are charged to it). */
  source: string;
}

/** Handlers are pure over the request; the route logs at the boundary with the review's identity (style P11). */
export type AdmissionHandler = (req: AdmissionRequest, ctx?: ReviewContext) => AdmissionResult | Promise<AdmissionResult>;

/** Turns whatever a handler threw into a response; purposeful denials keep their code. */
export function resultFromError(err: unknown): AdmissionResult {
  if (err instanceof AdmissionDeniedError) return err.code === 403 ? denied(err.message) : errored(err.code, err);
  return errored(500, err instanceof Error ? new Error(`internal error: ${err.message}`) : new Error(`internal error: ${String(err)}`));
}

function isResult(r: unknown): r is AdmissionResult {
  return typeof r === 'object' && r !== null && typeof (r as AdmissionResult).allowed === 'boolean';
}

export interface Answer {
  outcome: Outcome;
  /** The reply body (empty for a refusal). */
  body: Uint8Array;
}

const EMPTY = new Uint8Array(0);

/** Fastify's JSON parser (synchronous in practice) as a function: the parsed value, or the parse error's message. */
export function parseJson(parse: JsonParser, bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let out: { ok: true; value: unknown } | { ok: false; message: string } = { ok: false, message: 'the JSON parser did not answer' };
  parse(undefined, text, (err, value) => (out = err ? { ok: false, message: err.message } : { ok: true, value }));
  return out;
}

const identity = (req: AdmissionRequest) => ({
  uid: req.uid,
  kind: req.kind.kind,
  ...(req.namespace !== undefined ? { namespace: req.namespace } : {}),
  ...(req.name !== undefined ? { name: req.name } : {}),
  operation: req.operation,
  ...(req.userInfo?.username !== undefined ? { user: req.userInfo.username } : {}),
});

/**
 * Answers one AdmissionReview body with `handler`. `onEnvelope` hears the apiVersion and uid as soon as the envelope
 * decodes, before the handler runs: the pool writes its deadline answer from them.
 */
export async function answerAdmission(handler: AdmissionHandler, bytes: Uint8Array, parse: JsonParser, ctx: ReviewContext, onEnvelope?: (e: Envelope) => void): Promise<Answer> {
  const parsed = parseJson(parse, bytes);
  if (!parsed.ok) return { outcome: { kind: 'refuse', code: 400, message: parsed.message }, body: EMPTY };
  const decoded = decodeReview(parsed.value);
  if (!decoded.ok) return { outcome: { kind: 'refuse', code: 400, message: decoded.message }, body: EMPTY };
  const { apiVersion, request: req } = decoded.review;
  onEnvelope?.({ kind: 'admit', apiVersion, uid: req.uid });
  const start = process.hrtime.bigint();
  let result: AdmissionResult;
  let error: string | undefined;
  try {
    const r = await handler(req, ctx);
    result = isResult(r) ? r : errored(500, new Error('internal error: handler returned no AdmissionResponse'));
  } catch (err) {
    result = resultFromError(err);
    if (!(err instanceof AdmissionDeniedError)) error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
  // A reply the apiserver could never apply is refused here, where it is encoded (review N-H2, reply-limit.ts).
  const { bytes: body, refused } = encodeBoundedReview(apiVersion, req.uid, result);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const label = refused === undefined ? resultLabel(result) : 'denied';
  return {
    outcome: { kind: 'admitted', label, seconds, identity: identity(req), ...(result.status ? { status: result.status } : {}), ...(error !== undefined ? { error } : {}),
      ...(refused !== undefined ? { replyRefused: refused } : {}) },
    body,
  };
}
