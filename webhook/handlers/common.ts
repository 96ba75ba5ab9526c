// Building blocks shared by the per-route handlers: clone-mutate-diff, violations → response, feature gates.
import { AdmissionDeniedError, formatViolations, type Violation } from '../../shared/errors.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed, denied, errored, patched, type AdmissionResult } from '../admission/response.js';
import { diffToPatch } from '../admission/patch.js';
import { decodeObject, type ObjectDecoder } from '../admission/decode-object.js';
import { cloneJson } from '../../shared/domain/inject/clone.js';

export type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** request.object as a JSON object; a review without one cannot be admitted (decode error → 400, as upstream). */
export function requestObject<T>(req: AdmissionRequest): T {
  if (!isObject(req.object)) throw new AdmissionDeniedError('request.object must be a JSON object', 400);
  return req.object as T;
}

/** request.oldObject on UPDATE (undefined otherwise or when absent). */
export function requestOldObject<T>(req: AdmissionRequest): T | undefined {
  return req.operation === 'UPDATE' && isObject(req.oldObject) ? (req.oldObject as T) : undefined;
}

/**
 * The typed-decoding step: request.object, and request.oldObject on UPDATE, must have the JSON types the domain code
 * walks, or the review is refused with 400 naming the fields (as upstream's decoder does) instead of a 500 TypeError.
 */
export function decodeRequestObjects(req: AdmissionRequest, decoder: ObjectDecoder): void {
  decodeObject(req.object, decoder, 'object');
  if (req.operation === 'UPDATE') decodeObject(req.oldObject, decoder, 'oldObject');
}

/**
 * Runs a mutation on a deep copy of request.object and answers with the diff against the request's own JSON
 * (style P3): no ops → allowed without patch. The copy lets `mutate` work in place; request.object is parsed JSON,
 * so cloneJson copies it exactly (structuredClone, several times slower, would give the same result).
 */
export async function mutateByDiff<T>(req: AdmissionRequest, mutate: (obj: T) => T | Promise<T>): Promise<AdmissionResult> {
  const original = requestObject<T>(req);
  const result = await mutate(cloneJson(original));
  return patched(diffToPatch(original, result));
}

/**
 * mutateByDiff for a mutation that returns a new object and never modifies its argument (mutatePodOnCreate builds its
 * result on a shell of the pod), so no copy is made up front; parts the mutation left alone are shared, and the diff
 * skips them by identity.
 */
export function diffNewObject<T>(req: AdmissionRequest, mutate: (obj: T) => T): AdmissionResult {
  const original = requestObject<T>(req);
  return patched(diffToPatch(original, mutate(original)));
}

/**
 * The most violations rendered into one refusal. Each renders its offending value, which may be a large part of the
 * object, so an object with a violation per element would otherwise cost elements × size to answer.
 */
export const MAX_REPORTED_VIOLATIONS = 100;

/** Violations → allowed, or a refusal with `code` (403 renders as Denied/Forbidden); at most MAX_REPORTED_VIOLATIONS shown. */
export function fromViolations(vs: Violation[], code: 400 | 403 | 422): AdmissionResult {
  if (vs.length === 0) return allowed('allowed to be admitted');
  const extra = vs.length - MAX_REPORTED_VIOLATIONS;
  const message = extra > 0 ? `${formatViolations(vs.slice(0, MAX_REPORTED_VIOLATIONS))} and ${extra} more errors` : formatViolations(vs);
  return code === 403 ? denied(message) : errored(code, new Error(message));
}

/** Upstream answers 403 "feature-gate X is not enabled" from handlers whose gate is off. */
export function requireGate(gates: Readonly<Record<string, boolean>>, name: string): void {
  if (!gates[name]) throw new AdmissionDeniedError(`feature-gate ${name} is not enabled`, 403);
}

/** Admission operations the Kruise handlers act on; others (DELETE, CONNECT) are allowed untouched. */
export const isCreateOrUpdate = (req: AdmissionRequest) => req.operation === 'CREATE' || req.operation === 'UPDATE';

export type KruiseVersion = 'v1alpha1' | 'v1beta1';

/**
 * The version the apiserver sent the object in: request.resource.version, which upstream's v1.9 handlers branch on
 * (kind.version for a hand-made review without `resource`, as the CLI and older tests write them).
 */
export const requestVersion = (req: AdmissionRequest): string => req.resource?.version ?? req.kind.version;

/** v1alpha1 or v1beta1, else 400 `unsupported version: <v>` (spec/openkruise-v1.9.md §2.4, §5.1). */
export function requireKruiseVersion(req: AdmissionRequest): KruiseVersion {
  const v = requestVersion(req);
  if (v === 'v1alpha1' || v === 'v1beta1') return v;
  throw new AdmissionDeniedError(`unsupported version: ${v}`, 400);
}
