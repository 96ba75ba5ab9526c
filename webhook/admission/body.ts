// The admission routes read their JSON body themselves instead of through Fastify's content-type parser. On Node 20
// that parser wraps every request's completion callback with AsyncResource.bind, which defines two accessor
// properties on a fresh function: each call leaves map transitions that live until a full GC, so a young-generation
// GC copies a whole batch of requests' objects into the old generation. Measured on this project's machine
// (bench/admission, docs/compatibility.md): a plain Node HTTPS server answering the benchmark's reviews went from
// 39,000 to 20,000 requests/s with one AsyncResource.bind per request, and scavenges from 0.2 ms to 4-6 ms each.
// Limits and errors stay Fastify's: the same 4xx codes, the same JSON parser (getDefaultJsonParser, so __proto__ and
// constructor.prototype keys are still refused), the same size limit semantics.
import type { IncomingMessage } from 'node:http';
import type { Charge } from './byte-budget.js';

export type BodyResult = { ok: true; body: unknown } | { ok: false; code: 400 | 413 | 415 | 503; message: string };

/** Fastify's JSON parser as getDefaultJsonParser returns it: (request, text, done). */
export type JsonParser = (req: unknown, body: string, done: (err: Error | null, body?: unknown) => void) => void;

const isJson = (contentType: string | undefined) => contentType !== undefined && contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';

export type RawBodyResult = { ok: true; bytes: Uint8Array } | { ok: false; code: 400 | 413 | 415 | 503; message: string };

/**
 * Reads and parses the JSON body of `raw` (readBody, then Fastify's parser: an empty or unparseable body is a 400).
 */
export async function readJsonBody(raw: IncomingMessage, limit: number, parse: JsonParser, charge: Charge): Promise<BodyResult> {
  const read = await readBody(raw, limit, charge);
  if (!read.ok) return read;
  const text = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength).toString('utf8');
  return new Promise((resolve) => parse(raw, text, (err, body) => resolve(err ? { ok: false, code: 400, message: err.message } : { ok: true, body })));
}

/**
 * Reads the raw bytes of the JSON body of `raw`, refusing a media type other than application/json (415), a body
 * over `limit` bytes by its Content-Length or as it arrives (413), and a chunk that `charge` cannot take (503: the
 * server's byte budget, this source's share of it, or its group's, is held by other requests). Every byte buffered
 * is added to `charge`, which the caller releases when the request's response closes (admission/send-reply.ts), not
 * here: the request keeps its body's share while its answer is computed and written (review N-H2).
 *
 * The budget is charged as bytes arrive, not by Content-Length up front: a client must send (and keep stalled) the
 * bytes it holds, instead of reserving 7 MiB with one header line. The bytes come in a SharedArrayBuffer of their own, so
 * that they can be shared with an admission worker (webhook/pool/) instead of copied.
 */
export function readBody(raw: IncomingMessage, limit: number, charge: Charge): Promise<RawBodyResult> {
  const type = raw.headers['content-type'];
  if (!isJson(type)) return Promise.resolve({ ok: false, code: 415, message: `unsupported media type ${JSON.stringify(type ?? '')}: an AdmissionReview is application/json` });
  if (Number(raw.headers['content-length']) > limit) return Promise.resolve(tooLarge(limit));
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: RawBodyResult) => {
      if (done) return;
      done = true;
      chunks = [];
      resolve(r);
    };
    // The listeners stay until the request closes: chunks after a refusal are dropped (the route closes the
    // connection after answering), and an error after the answer (the client went away) has a listener instead of
    // crashing the process.
    raw.on('data', (chunk: Buffer) => {
      if (done) return;
      if (size + chunk.length > limit) finish(tooLarge(limit));
      else if (!charge.tryAdd(chunk.length)) finish(overloaded());
      else {
        size += chunk.length;
        chunks.push(chunk);
      }
    });
    raw.on('end', () => {
      if (done) return;
      // One copy, as Buffer.concat made: into a SharedArrayBuffer of its own (a small Buffer may share Node's pool),
      // which the admission pool shares with a worker instead of transferring it, so that it can take a job back
      // from a worker that never started it (webhook/pool/claims.ts) and still hold its bytes.
      const bytes = new Uint8Array(new SharedArrayBuffer(size));
      let at = 0;
      for (const c of chunks) { bytes.set(c, at); at += c.length; }
      finish({ ok: true, bytes });
    });
    raw.on('error', (err: Error) => finish({ ok: false, code: 400, message: `reading the request body: ${err.message}` }));
    // A request cut by the request timeout or the client closes without 'end' (and, on some paths, without 'error').
    raw.on('close', () => finish({ ok: false, code: 400, message: 'the request closed before its body was complete' }));
  });
}

const tooLarge = (limit: number) => ({ ok: false as const, code: 413 as const, message: `request body is larger than ${limit} bytes` });

const overloaded = (): RawBodyResult => ({
  ok: false,
  code: 503,
  message: 'too many request bytes in flight (the server\'s byte budget, or this client\'s share of it, is held by other requests); retry',
});
