// The ConversionReview a CRD's Webhook conversion sends to /convert, answered as controller-runtime v0.20's conversion
// handler answers it (spec/openkruise-v1.9.md §2.3): the request's apiVersion and kind echoed, `request` replaced by a
// `response` with the request's uid; every object converted to desiredAPIVersion, or, when any object fails, no
// objects (`convertedObjects: null`) and a Failure result with that object's error. Only a body that is no
// ConversionReview at all (not decodable, no `request`) is refused, with a bare 400.
import { ConversionError, convertObject } from '../../shared/domain/conversion/scheme.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import { decodeObject, type ObjectDecoder } from '../admission/decode-object.js';
import { MAX_NESTING_DEPTH, tooDeepPath } from '../admission/depth.js';
import { boundedJson } from './bounded-json.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: unknown[];
}

export type DecodedConversionReview =
  | { ok: true; apiVersion?: string; kind?: string; request: ConversionRequest }
  | { ok: false; message: string };

/** Go's decode into apiextensions/v1 ConversionReview: wrong JSON types fail it; unknown fields are ignored. */
export function decodeConversionReview(body: unknown): DecodedConversionReview {
  if (!isObject(body)) return { ok: false, message: `a ConversionReview is a JSON object (got ${jsonType(body)})` };
  for (const key of ['apiVersion', 'kind'] as const) {
    if (body[key] !== undefined && body[key] !== null && typeof body[key] !== 'string') return { ok: false, message: `${key} must be a string (got ${jsonType(body[key])})` };
  }
  const req = body.request;
  if (req === undefined || req === null) return { ok: false, message: 'conversion request is nil' };
  if (!isObject(req)) return { ok: false, message: `request must be an object (got ${jsonType(req)})` };
  for (const key of ['uid', 'desiredAPIVersion'] as const) {
    if (req[key] !== undefined && req[key] !== null && typeof req[key] !== 'string') return { ok: false, message: `request.${key} must be a string (got ${jsonType(req[key])})` };
  }
  if (req.objects !== undefined && req.objects !== null && !Array.isArray(req.objects)) return { ok: false, message: `request.objects must be an array (got ${jsonType(req.objects)})` };
  return {
    ok: true,
    ...(typeof body.apiVersion === 'string' ? { apiVersion: body.apiVersion } : {}),
    ...(typeof body.kind === 'string' ? { kind: body.kind } : {}),
    request: { uid: (req.uid as string | undefined) ?? '', desiredAPIVersion: (req.desiredAPIVersion as string | undefined) ?? '', objects: (req.objects as unknown[] | null | undefined) ?? [] },
  };
}

/** How much of an object upstream's "missing kind" errors quote; upstream quotes it whole (see compatibility.md). */
const QUOTE_LIMIT = 1024;

const quote = (o: unknown): string => boundedJson(o, QUOTE_LIMIT);

/** The Go types' decode step for one object: its type meta, then the JSON types of the fields its kind has. */
function decodeOne(raw: unknown, i: number, decoders: ReadonlyMap<string, ObjectDecoder>): Json {
  if (!isObject(raw)) {
    throw new ConversionError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(raw)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  // Depth first (review N-L1): everything after this, the quote included, may then walk the object.
  const deep = tooDeepPath(raw);
  if (deep !== undefined) {
    const kind = typeof raw.kind === 'string' && raw.kind !== '' ? raw.kind : 'object';
    throw new ConversionError(`request.objects[${i}] is nested more than ${MAX_NESTING_DEPTH} levels deep (at ${deep}); no valid ${kind} nests that deep`);
  }
  if (typeof raw.kind !== 'string' || raw.kind === '') throw new ConversionError(`Object 'Kind' is missing in '${quote(raw)}'`);
  if (typeof raw.apiVersion !== 'string' || raw.apiVersion === '') throw new ConversionError(`Object 'apiVersion' is missing in '${quote(raw)}'`);
  const decoder = decoders.get(raw.kind);
  if (decoder) {
    try {
      decodeObject(raw, decoder, `objects[${i}]`);
    } catch (err) {
      if (err instanceof AdmissionDeniedError) throw new ConversionError(err.message);
      throw err;
    }
  }
  return raw;
}

export interface ConversionOutcome {
  /** The reply as JSON text. */
  body: string;
  /** The error of a failed review, for the log; undefined on success. */
  failure?: string;
  converted: number;
}

/**
 * Converts every object of the review or none; a ConversionError (or any other throw, reported as an internal error)
 * fails the whole review, as upstream's handler does. `decoders` are the decode steps by kind (kinds without one only
 * have their type meta checked; unregistered kinds fail in the scheme).
 */
export function answerConversionReview(review: Extract<DecodedConversionReview, { ok: true }>, decoders: ReadonlyMap<string, ObjectDecoder>): ConversionOutcome {
  const { request } = review;
  let response: Json;
  let failure: string | undefined;
  try {
    const converted = request.objects.map((raw, i) => convertObject(decodeOne(raw, i, decoders), request.desiredAPIVersion));
    // Go's nil slice: a review with no objects answers `convertedObjects: null`.
    response = { uid: request.uid, convertedObjects: converted.length ? converted : null, result: { metadata: {}, status: 'Success' } };
  } catch (err) {
    failure = err instanceof ConversionError ? err.message : `internal error: ${err instanceof Error ? err.message : String(err)}`;
    response = { uid: request.uid, convertedObjects: null, result: { metadata: {}, status: 'Failure', message: failure } };
  }
  // Go's TypeMeta: kind, then apiVersion, each omitted when empty.
  const envelope = { ...(review.kind ? { kind: review.kind } : {}), ...(review.apiVersion ? { apiVersion: review.apiVersion } : {}), response };
  return { body: JSON.stringify(envelope), ...(failure !== undefined ? { failure } : {}), converted: failure === undefined ? request.objects.length : 0 };
}
