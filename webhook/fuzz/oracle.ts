// What every fuzzed reply must satisfy. Beyond a well-formed AdmissionReview (echoed apiVersion and uid, refusals
// coded 400/403/422, never ≥500): a returned patch must apply to the object that was sent (fast-json-patch validate +
// applyPatch), a pod that was valid must stay valid once patched, and injection must be idempotent (checked by the
// runner, which re-sends the patched pod). A wrong patch (review: insertions() emitting `${path}/${j + 1}`) fails here.
import fjp from 'fast-json-patch';
import type { Container, Pod } from '../../shared/api/meta.js';
import { validatePodSpecSubset } from '../../shared/domain/validation/pod-spec.js';
import { formatViolations } from '../../shared/errors.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Verdict {
  /** Why the reply is wrong, or null. */
  problem: string | null;
  /** The sent object with the returned patch applied, when there was a patch and it applied. */
  patched?: unknown;
  /** The outcome class for the counts: '400', '200 allowed', '200 patched', '200 <code>'. */
  outcome: string;
}

/** Structural problems of a pod (beyond the project's field rules): shape, unique names, mounts with volumes. */
export function podProblems(pod: unknown): string[] {
  if (!isObject(pod)) return ['pod is not an object'];
  if (pod.metadata !== undefined && !isObject(pod.metadata)) return ['metadata is not an object'];
  const spec = pod.spec;
  if (!isObject(spec)) return ['spec is not an object'];
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) return ['spec.containers is not a non-empty array'];
  const inits = spec.initContainers ?? [];
  if (!Array.isArray(inits)) return ['spec.initContainers is not an array'];
  const all = [...inits, ...containers] as unknown[];
  if (!all.every((c) => isObject(c) && typeof c.name === 'string')) return ['a container is not an object with a name'];
  const volumes = (spec.volumes ?? []) as unknown[];
  if (!Array.isArray(volumes) || !volumes.every((v) => isObject(v) && typeof v.name === 'string')) return ['spec.volumes is not an array of named objects'];
  const out: string[] = [];
  const names = new Set<string>();
  const volumeNames = new Set(volumes.map((v) => (v as Json).name as string));
  for (const c of all as Container[]) {
    if (names.has(c.name)) out.push(`container name ${c.name} is not unique`);
    names.add(c.name);
    for (const m of (Array.isArray(c.volumeMounts) ? c.volumeMounts : []) as unknown[]) {
      if (isObject(m) && !volumeNames.has(m.name as string)) out.push(`container ${c.name} mounts ${String(m.name)}, which is no volume`);
    }
  }
  const vs = validatePodSpecSubset(spec as Pod['spec'] & object);
  if (vs.length > 0) out.push(formatViolations(vs));
  return out;
}

/** The sent object with `ops` applied (a copy), or the reason they do not apply. */
export function applyOps(sent: unknown, ops: unknown): { doc: unknown } | { error: string } {
  if (!Array.isArray(ops) || ops.length === 0) return { error: 'empty or non-array patch' };
  const doc = JSON.parse(JSON.stringify(sent ?? null)) as unknown;
  const invalid = fjp.validate(ops as fjp.Operation[], doc);
  if (invalid) return { error: `patch does not apply: ${invalid.name} ${invalid.message.split('\n')[0]} at op ${invalid.index}` };
  try {
    return { doc: fjp.applyPatch(doc, ops as fjp.Operation[], true, true).newDocument };
  } catch (err) {
    return { error: `patch does not apply: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** A 400 (no review at all) is fine; else the parsed 200 reply, or the verdict on a reply that is neither. */
function parsedReply(status: number, text: string): Verdict | { reply: Json } {
  if (status === 400) return { problem: null, outcome: '400' };
  if (status !== 200) return { problem: `status ${status}: ${text.slice(0, 200)}`, outcome: `${status}` };
  try {
    return { reply: JSON.parse(text) as Json };
  } catch {
    return { problem: `non-JSON 200 reply: ${text.slice(0, 200)}`, outcome: '200' };
  }
}

/**
 * A /convert reply: a bare 400 for no ConversionReview at all, else a ConversionReview echoing apiVersion, kind and
 * uid with a Success (every object converted) or a Failure naming why, never an internal error.
 */
function checkConversionReply(status: number, text: string, sent: Json | undefined): Verdict {
  const parsed = parsedReply(status, text);
  if (!('reply' in parsed)) return parsed;
  const reply = parsed.reply;
  const fail = (problem: string, outcome = `${status}`): Verdict => ({ problem, outcome });
  const res = reply.response as Json | undefined;
  const request = sent?.request as Json | undefined;
  // Go's TypeMeta omits an empty apiVersion.
  if (reply.apiVersion !== (typeof sent?.apiVersion === 'string' && sent.apiVersion !== '' ? sent.apiVersion : undefined) || !res) return fail(`bad envelope ${text.slice(0, 200)}`);
  if (res.uid !== (typeof request?.uid === 'string' ? request.uid : '')) return fail(`uid not echoed: ${text.slice(0, 200)}`);
  const result = res.result as { status?: string; message?: string } | undefined;
  if (result?.status === 'Success') {
    const objects = Array.isArray(request?.objects) ? request.objects : [];
    const converted = res.convertedObjects as unknown[] | null;
    if ((converted?.length ?? 0) !== objects.length) return fail(`Success with ${converted?.length ?? 0} of ${objects.length} objects`, '200 Success');
    return { problem: null, outcome: '200 Success' };
  }
  if (result?.status !== 'Failure' || typeof result.message !== 'string' || res.convertedObjects !== null) return fail(`bad result ${text.slice(0, 200)}`);
  if (result.message.startsWith('internal error')) return fail(`internal error: ${result.message.slice(0, 200)}`, '200 Failure');
  return { problem: null, outcome: '200 Failure' };
}

/** Checks one reply to `sent` (the review as parsed from the payload; `path` the route). */
export function checkReply(path: string, status: number, text: string, sent: Json | undefined): Verdict {
  if (path === '/convert') return checkConversionReply(status, text, sent);
  const parsed = parsedReply(status, text);
  if (!('reply' in parsed)) return parsed;
  const reply = parsed.reply;
  const fail = (problem: string, outcome = `${status}`): Verdict => ({ problem, outcome });
  if (reply.kind !== 'AdmissionReview' || reply.apiVersion !== sent?.apiVersion) return fail(`bad envelope ${text.slice(0, 200)}`);
  const res = reply.response as Json | undefined;
  const request = sent?.request as Json | undefined;
  if (!res || res.uid !== request?.uid || typeof res.allowed !== 'boolean') return fail(`bad response ${text.slice(0, 200)}`);
  const code = (res.status as { code?: number; message?: string } | undefined)?.code;
  if (!res.allowed) {
    const outcome = `200 ${code}`;
    if (typeof code === 'number' && code >= 500) return fail(`server error ${code}: ${(res.status as Json).message}`, outcome);
    if (![400, 403, 422].includes(code as number)) return fail(`refusal without a code ${text.slice(0, 200)}`, outcome);
    return { problem: null, outcome };
  }
  if (res.patch === undefined) return { problem: null, outcome: '200 allowed' };
  if (res.patchType !== 'JSONPatch') return fail('patch without patchType', '200 patched');
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(res.patch as string, 'base64').toString('utf8'));
  } catch {
    return fail('patch is not base64 JSON', '200 patched');
  }
  const applied = applyOps(request?.object, ops);
  if ('error' in applied) return fail(applied.error, '200 patched');
  if (path === '/mutate-pod' && podProblems(request?.object).length === 0) {
    const problems = podProblems(applied.doc);
    if (problems.length > 0) return { problem: `a valid pod patched into an invalid one: ${problems.slice(0, 3).join('; ')}`, outcome: '200 patched', patched: applied.doc };
  }
  return { problem: null, outcome: '200 patched', patched: applied.doc };
}

/** What injection decides, to compare a patched pod with the pod re-sent and patched again: names, mounts, volumes. */
export function injectionView(pod: unknown): string {
  const spec = (isObject(pod) && isObject(pod.spec) ? pod.spec : {}) as Json;
  const containers = (list: unknown) => (Array.isArray(list) ? list : []).map((c: Container) => ({ name: c?.name, image: c?.image, mounts: c?.volumeMounts }));
  return JSON.stringify({
    containers: containers(spec.containers),
    initContainers: containers(spec.initContainers),
    volumes: (Array.isArray(spec.volumes) ? spec.volumes : []).map((v: Json) => v?.name),
  });
}

/**
 * Reads of the request object allowed for one /mutate-pod review of `bytes` of JSON: linear, generous (the cost test,
 * webhook/admission-cost.test.ts, sees 0.2–0.8 per byte), plus a constant for the SidecarSets' own work.
 */
export const readBudget = (bytes: number) => 8 * bytes + 20_000;

/**
 * Digits of powers of ten quantity code may build for one review of `bytes` (shared/domain/quantity-scale.ts): an
 * ordinary quantity costs a few dozen, a sum of far-apart ones at most ~1,000 (quantity-math's MAX_ARITH_SHIFT), each
 * for some bytes of input. Review N-C1 built 10^100,000,000 for 12 bytes.
 */
export const quantityDigitBudget = (bytes: number) => 256 * bytes + 20_000;
