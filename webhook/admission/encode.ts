// The AdmissionReview reply as JSON text, written by hand around the patch. A patched pod's reply is ~17 KB, almost
// all of it the base64 patch: JSON.stringify would scan those bytes for characters to escape, and Fastify would do
// it again when serialising an object. Base64 (RFC 4648: A–Z a–z 0–9 + / =) never needs escaping, so the patch is
// spliced in verbatim and only the small rest goes through JSON.stringify.
import type { AdmissionResult } from './response.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * JSON of `{ apiVersion, kind: 'AdmissionReview', response: { uid, ...result } }`; parses to exactly that object
 * (the patch member is written last). `result.patch`, when present, must be base64 as diffToPatch makes it.
 */
export function encodeReview(apiVersion: string, uid: string, result: AdmissionResult): string {
  if (result.patch === undefined) return JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid, ...result } });
  const { patch, ...rest } = result;
  const head = JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid, ...rest } });
  // head ends with the "}}" closing response and the review.
  return `${head.slice(0, -2)},"patch":"${patch}"}}`;
}
