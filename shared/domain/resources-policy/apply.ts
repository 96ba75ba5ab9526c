// A sidecar's resources from its resourcesPolicy, at pod creation (spec/openkruise-v1.9.md §3.2–3.5): the pod's own
// containers whose names match the regex are aggregated (sum or max), and each expression is evaluated with the
// aggregate bound to `cpu` or `memory`. The result replaces the sidecar's resources.
import type { Container, Pod } from '../../api/meta.js';
import type { ResourcesPolicy, SidecarContainer, SidecarSet } from '../../api/sidecarset.js';
import { add, int64FromFloat, intQuantity, milliQuantity, parseQuantity, cmp } from '../quantity-math.js';
import { formatGoQuantity, QuantityParseError, type GoQuantity } from '../quantity.js';
import { evaluateExpression, ExpressionError, qty } from './expression.js';
import { compileGoRegexp, type GoRegexp } from './go-regexp.js';
import { goQuote } from './go-quote.js';

type Resources = NonNullable<Container['resources']>;

/** A pod the policy cannot be applied to; the message is upstream's. */
export class ResourcesPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourcesPolicyError';
  }
}

/** Aggregated values: a key is absent when unlimited (limits) or zero (sum requests) or absent everywhere (max). */
interface Aggregate {
  cpu?: GoQuantity;
  memory?: GoQuantity;
}

const quantityOf = (list: Record<string, unknown> | undefined, key: 'cpu' | 'memory'): GoQuantity | undefined => {
  const v = list?.[key];
  return v === undefined || v === null ? undefined : parseQuantity(String(v));
};

// Compiled patterns are kept across reviews (with their warm DFA caches); SidecarSets hold few distinct patterns.
const compiledPatterns = new Map<string, GoRegexp>();
const MAX_PATTERNS = 256;

function compiledRegexp(pattern: string): GoRegexp {
  let r = compiledPatterns.get(pattern);
  if (!r) {
    if (compiledPatterns.size >= MAX_PATTERNS) compiledPatterns.delete(compiledPatterns.keys().next().value!);
    compiledPatterns.set(pattern, (r = compileGoRegexp(pattern)));
  }
  return r;
}

/**
 * The pod's containers the policy aggregates, in upstream's order: native-sidecar init containers, then containers,
 * whose names match and are not a container or init container of any SidecarSet injecting into this pod.
 */
export function targetContainers(pod: Pod, nameRegex: string, sidecarSets: readonly SidecarSet[]): Container[] {
  const compiled = compiledRegexp(nameRegex);
  if (!compiled.ok) throw new ResourcesPolicyError(`invalid regex pattern ${goQuote(nameRegex)}: ${compiled.error}`);
  const excluded = new Set<string>();
  for (const set of sidecarSets) for (const c of [...(set.spec?.initContainers ?? []), ...(set.spec?.containers ?? [])]) excluded.add(c.name);
  const candidates = [...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...(pod.spec?.containers ?? [])];
  return candidates.filter((c) => !excluded.has(c.name) && isContainerName(c.name) && compiled.regexp.test(c.name));
}

/** A container name is a DNS-1123 label: at most 63 characters (k8s core validation). */
const MAX_CONTAINER_NAME = 63;

/**
 * Whether a name can be matched at all. Mutating webhooks see a pod before the apiserver validates it, so a name may
 * be 100 KB long (sent straight to the port, or in a pod the apiserver will refuse after admission). Upstream matches
 * it with Go's linear RE2; our DFA cache thrashes on DFA-exponential patterns (review N-L2: 2.6 s for
 * `(a|b)*a(a|b){300}c` on 100 KB). Such a name is never a target: the pod cannot be stored with it, so whichever
 * resources the sidecar would get from it, they are never seen; matching costs at most 63 characters per container.
 */
function isContainerName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= MAX_CONTAINER_NAME;
}

/** `sum`: limits only when every target has one; requests summed from a zero (absent when the sum is zero). */
function sum(targets: readonly Container[]): { limits: Aggregate; requests: Aggregate } {
  const limits: Aggregate = {};
  const requests: Aggregate = {};
  for (const key of ['cpu', 'memory'] as const) {
    let limit: GoQuantity | undefined = intQuantity(0n);
    let request = intQuantity(0n);
    for (const c of targets) {
      const l = quantityOf(c.resources?.limits, key);
      limit = l && limit ? add(limit, l) : undefined;
      const r = quantityOf(c.resources?.requests, key);
      if (r) request = add(request, r);
    }
    if (limit) limits[key] = limit;
    if (request.unscaled !== 0n) requests[key] = request;
  }
  return { limits, requests };
}

/** `max`: the largest present value, the first on ties, kept as it was written; limits only when every target has one. */
function max(targets: readonly Container[]): { limits: Aggregate; requests: Aggregate } {
  const limits: Aggregate = {};
  const requests: Aggregate = {};
  for (const key of ['cpu', 'memory'] as const) {
    let limit: GoQuantity | undefined;
    let unlimited = false;
    let request: GoQuantity | undefined;
    for (const c of targets) {
      const l = quantityOf(c.resources?.limits, key);
      if (!l) unlimited = true;
      else if (!limit || cmp(l, limit) > 0) limit = l;
      const r = quantityOf(c.resources?.requests, key);
      if (r && (!request || cmp(r, request) > 0)) request = r;
    }
    if (limit && !unlimited) limits[key] = limit;
    if (request) requests[key] = request;
  }
  return { limits, requests };
}

/**
 * evaluateResourceExpression: the variable is `memory` if the expression mentions the word, else `cpu`; a Number
 * result becomes milli-cores (cpu) or whole bytes (memory), truncated.
 */
export function evaluateResourceExpression(expr: string, aggregated: GoQuantity): GoQuantity {
  const variable = /\bmemory\b/.test(expr) ? 'memory' : 'cpu';
  let result;
  try {
    result = evaluateExpression(expr, new Map([[variable, qty(aggregated)]]));
  } catch (err) {
    // A QuantityRangeError: arithmetic on a value quantity-math will not expand (e.g. 1e30000000 + 1m).
    if (!(err instanceof ExpressionError) && !(err instanceof QuantityParseError)) throw err;
    throw new ResourcesPolicyError(`failed to parse expression ${goQuote(expr)}: ${(err as Error).message}`);
  }
  if (result.kind === 'quantity') return result.q;
  return variable === 'cpu' ? milliQuantity(int64FromFloat(result.n * 1000)) : intQuantity(int64FromFloat(result.n));
}

const ZERO: GoQuantity = intQuantity(0n);
const WHAT = { cpu: 'CPU', memory: 'memory' } as const;

/** The sidecar's resources under `policy`. Throws ResourcesPolicyError with upstream's message. */
export function policyResources(policy: ResourcesPolicy, pod: Pod, sidecarSets: readonly SidecarSet[]): Resources {
  const regex = policy.targetContainersNameRegex ?? '';
  let targets: Container[];
  try {
    targets = targetContainers(pod, regex, sidecarSets);
  } catch (err) {
    if (err instanceof ResourcesPolicyError) throw new ResourcesPolicyError(`failed to get target containers: ${err.message}`);
    throw err;
  }
  if (targets.length === 0) throw new ResourcesPolicyError(`no containers match the regex pattern ${goQuote(regex)}`);
  // An unknown mode (only the CRD enum refuses it) aggregates nothing: every limit unlimited, every request zero.
  const mode = policy.targetContainersMode;
  let aggregate: ReturnType<typeof sum>;
  try {
    aggregate = mode === 'sum' ? sum(targets) : mode === 'max' ? max(targets) : { limits: {}, requests: {} };
  } catch (err) {
    // The pod's own quantities: the apiserver has parsed them, but one sent straight to the port may not parse, and a
    // sum may need more digits than quantity-math expands. A refusal, not an internal error.
    if (!(err instanceof QuantityParseError)) throw err;
    throw new ResourcesPolicyError(`failed to aggregate the target containers' resources: ${err.message}`);
  }
  const resources: Resources = {};
  const compute = (kind: 'limits' | 'requests') => {
    const exprs = policy.resourcesExpr?.[kind];
    if (!exprs) return;
    const out: Record<string, string> = {};
    for (const key of ['cpu', 'memory'] as const) {
      const expr = exprs[key];
      if (!expr) continue;
      const value = aggregate[kind][key];
      if (kind === 'limits' && !value) continue; // unlimited stays unlimited, whatever the expression
      try {
        out[key] = formatGoQuantity(evaluateResourceExpression(expr, value ?? ZERO));
      } catch (err) {
        if (!(err instanceof ResourcesPolicyError)) throw err;
        throw new ResourcesPolicyError(`failed to evaluate ${WHAT[key]} ${kind} expression: ${err.message}`);
      }
    }
    if (Object.keys(out).length > 0) resources[kind] = out;
  };
  compute('limits');
  compute('requests');
  return resources;
}

/** The sidecar with its resources computed, or the sidecar itself when it has no policy. */
export function withPolicyResources(sidecar: SidecarContainer, pod: Pod, sidecarSets: readonly SidecarSet[]): SidecarContainer {
  if (!sidecar.resourcesPolicy) return sidecar;
  return { ...sidecar, resources: policyResources(sidecar.resourcesPolicy, pod, sidecarSets) };
}
