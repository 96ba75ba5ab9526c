// The AdmissionReview reply as JSON bytes, written by hand around the patch. A patched pod's reply is ~17 KB, almost
// all of it the base64 patch: JSON.stringify would scan those bytes for characters to escape, and Fastify would do
// it again when serialising an object. Base64 (RFC 4648: A–Z a–z 0–9 + / =) never needs escaping, so the patch is
// copied in verbatim and only the small rest goes through JSON.stringify. The reply is a Buffer: a string would be
// flattened to measure its length and again when the HTTP layer prepends the headers, two 17 KB copies per review.
import type { AdmissionResult } from './response.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * UTF-8 JSON of `{ apiVersion, kind: 'AdmissionReview', response: { uid, ...result } }`; parses to exactly that
 * object (the patch member is written last). `result.patch`, when present, must be base64 as diffToPatch makes it.
 */
export function encodeReview(apiVersion: string, uid: string, result: AdmissionResult): Buffer {
  if (result.patch === undefined) return Buffer.from(JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid, ...result } }));
  const { patch, ...rest } = result;
  const review = JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid, ...rest } });
  // review ends with the "}}" closing response and the review; the patch member goes in before them.
  const head = `${review.slice(0, -2)},"patch":"`;
  const headBytes = Buffer.byteLength(head);
  const out = Buffer.allocUnsafe(headBytes + patch.length + 3);
  out.write(head, 0, 'utf8');
  // Base64 is ASCII: one byte per character.
  out.write(patch, headBytes, 'latin1');
  out.write('"}}', headBytes + patch.length, 'latin1');
  return out;
}
