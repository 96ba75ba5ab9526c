// A container's `resources` (k8s core validation validateResourceRequirements with validateContainerResourceName).
// Upstream walks Go maps, so the order of errors among resource names is random there; here names are sorted.
// Hugepage values are not checked for divisibility: kruise sets AllowIndivisibleHugePagesValues.
import type { Violation } from '../../errors.js';
import { canonicalQuantity, compareQuantityValues, isWholeQuantity, parseQuantityValue, type QuantityValue } from '../quantity.js';
import { duplicate, forbidden, invalid, invalidEach, list, notFound, obj, required, str, type Json } from './field-errors.js';
import { isDNS1123Label, isQualifiedName } from './names.js';

const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const integerResources = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);
const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

const isHugePages = (n: string): boolean => n.startsWith('hugepages-');
const isNative = (n: string): boolean => !n.includes('/') || n.includes('kubernetes.io/');
const isOvercommitAllowed = (n: string): boolean => isNative(n) && !isHugePages(n);
const isExtended = (n: string): boolean => !isNative(n) && !n.startsWith('requests.') && isQualifiedName(`requests.${n}`).length === 0;

/** validateResourceName's findings, then the container-specific check, which upstream appends regardless. */
function validateContainerResourceName(name: string, f: string): Violation[] {
  const bare = !name.includes('/');
  const out = invalidEach(f, name, isQualifiedName(name));
  if (out.length === 0 && bare && !standardResources.has(name) && !name.startsWith('requests.hugepages-') && !isHugePages(name)) {
    out.push(invalid(f, name, 'must be a standard resource type or fully qualified'));
  }
  if (bare) {
    if (!standardContainerResources.has(name) && !isHugePages(name)) out.push(invalid(f, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    out.push(invalid(f, name, "doesn't follow extended resource name standard"));
  }
  return out;
}

interface Parsed {
  shown: string;
  value: QuantityValue;
}

/** undefined where Go's decoder would have refused the quantity (the decoder reports that before validation). */
function parse(q: unknown): Parsed | undefined {
  if (typeof q !== 'string' && typeof q !== 'number') return undefined;
  try {
    return { shown: canonicalQuantity(q), value: parseQuantityValue(q) };
  } catch {
    return undefined;
  }
}

const zero: QuantityValue = { unscaled: 0n, scale: 0 };

function validateQuantity(name: string, q: Parsed, f: string): Violation[] {
  const out: Violation[] = [];
  if (compareQuantityValues(q.value, zero) < 0) out.push(invalid(f, q.shown, 'must be greater than or equal to 0'));
  if ((integerResources.has(name) || isExtended(name)) && !isWholeQuantity(q.value)) out.push(invalid(f, q.shown, 'must be an integer'));
  return out;
}

const sortedEntries = (m: Json | undefined): [string, Parsed | undefined][] =>
  Object.keys(m ?? {}).sort().map((k) => [k, parse(m![k])]);

/** `podClaimNames`: the pod's spec.resourceClaims names (none in SidecarSet's fake pod). */
export function validateResourceRequirements(resources: unknown, f: string, podClaimNames: readonly string[] = []): Violation[] {
  const r = obj(resources) ?? {};
  const limits = sortedEntries(obj(r.limits));
  const limitByName = new Map(limits);
  const out: Violation[] = [];
  let qosResources = false;
  let hugePages = false;
  for (const [name, q] of limits) {
    const nf = `${f}.limits[${name}]`;
    out.push(...validateContainerResourceName(name, nf));
    if (q) out.push(...validateQuantity(name, q, nf));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') qosResources = true;
  }
  for (const [name, q] of sortedEntries(obj(r.requests))) {
    const nf = `${f}.requests[${name}]`;
    out.push(...validateContainerResourceName(name, nf));
    if (q) out.push(...validateQuantity(name, q, nf));
    const limit = limitByName.get(name);
    if (limitByName.has(name)) {
      if (q && limit) {
        const cmp = compareQuantityValues(q.value, limit.value);
        if (cmp !== 0 && !isOvercommitAllowed(name)) out.push(invalid(`${f}.requests`, q.shown, `must be equal to ${name} limit of ${limit.shown}`));
        else if (cmp > 0) out.push(invalid(`${f}.requests`, q.shown, `must be less than or equal to ${name} limit of ${limit.shown}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      out.push(required(`${f}.limits`, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') qosResources = true;
  }
  if (hugePages && !qosResources) out.push(forbidden(f, 'HugePages require cpu or memory'));
  out.push(...validateClaimNames(r.claims, `${f}.claims`, podClaimNames));
  return out;
}

/** A claim name the pod does not declare is Not found, the declared ones listed sorted (or "which is empty"). */
function validateClaimNames(claims: unknown, f: string, podClaimNames: readonly string[]): Violation[] {
  const declared = new Set(podClaimNames);
  const listed = [...declared].sort();
  const notDeclared = listed.length === 0 ? 'must be one of the names in pod.spec.resourceClaims which is empty'
    : `must be one of the names in pod.spec.resourceClaims: ${listed.join(', ')}`;
  const out: Violation[] = [];
  const keys = new Set<string>();
  const requestsPerClaim = new Map<string, number>();
  list(claims).forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const name = str(c.name);
    if (name === '') {
      out.push(required(idx));
      return;
    }
    if (keys.has(name)) {
      out.push(duplicate(idx, name));
    } else {
      const request = str(c.request);
      let key = name;
      if (request !== '') {
        out.push(...invalidEach(`${idx}.request`, request, isDNS1123Label(request)));
        key += `/${request}`;
      }
      if (keys.has(key)) out.push(duplicate(idx, key));
      else if (request === '') for (let n = requestsPerClaim.get(name) ?? 0; n > 0; n--) out.push(duplicate(idx, name));
      if (request !== '' && !keys.has(key)) requestsPerClaim.set(name, (requestsPerClaim.get(name) ?? 0) + 1);
      keys.add(key);
    }
    if (!declared.has(name)) out.push(notFound(idx, name, notDeclared));
  });
  return out;
}
