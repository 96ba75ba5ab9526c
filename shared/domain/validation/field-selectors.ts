// Downward-API selectors shared by env `valueFrom` and downwardAPI volume items (k8s core validation
// validateObjectFieldSelector, validateContainerResourceFieldSelector, validateContainerResourceDivisor).
import type { Violation } from '../../errors.js';
import { canonicalQuantity, compareQuantityValues, parseQuantityValue } from '../quantity.js';
import { invalid, invalidEach, notSupported, required, str, type Json } from './field-errors.js';
import { isQualifiedName } from './names.js';

/** Paths ConvertDownwardAPIFieldLabel accepts for apiVersion v1 (before the caller's own allow-list). */
const convertibleFieldPaths = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs',
]);

/** Sorted, as upstream lists a sets.Set in NotSupported. */
export const envFieldPaths = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
];
export const volumeFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** fieldpath.SplitMaybeSubscriptedPath: `a.b['key']` → ['a.b', 'key']. */
function splitSubscript(path: string): [string, string] | undefined {
  if (!path.endsWith("']")) return undefined;
  const body = path.slice(0, -2);
  const at = body.indexOf("['");
  if (at <= 0) return undefined;
  return [body.slice(0, at), body.slice(at + 2)];
}

export function validateObjectFieldSelector(fs: Json, allowed: readonly string[], f: string): Violation[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (apiVersion === '') return [required(`${f}.apiVersion`)];
  if (fieldPath === '') return [required(`${f}.fieldPath`)];
  let convertError: string | undefined;
  const sub = splitSubscript(fieldPath);
  if (apiVersion !== 'v1') convertError = `unsupported pod version: ${apiVersion}`;
  else if (sub && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') convertError = `field label does not support subscript: ${fieldPath}`;
  else if (!sub && !convertibleFieldPaths.has(fieldPath) && fieldPath !== 'spec.host') convertError = `field label not supported: ${fieldPath}`;
  if (convertError) return [invalid(`${f}.fieldPath`, fieldPath, `error converting fieldPath: ${convertError}`)];

  if (sub) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    return invalidEach(f, key, isQualifiedName(key));
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  return allowed.includes(internal) ? [] : [notSupported(`${f}.fieldPath`, internal, allowed)];
}

const resourceFieldPaths = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const hugePagePrefixes = ['limits.hugepages-', 'requests.hugepages-'];

/** `inVolume`: a downwardAPI volume item must also name its container. */
export function validateResourceFieldSelector(fs: Json, f: string, inVolume: boolean): Violation[] {
  const out: Violation[] = [];
  const resource = str(fs.resource);
  if (inVolume && str(fs.containerName) === '') out.push(required(`${f}.containerName`));
  else if (resource === '') out.push(required(`${f}.resource`));
  else if (!resourceFieldPaths.includes(resource) && !hugePagePrefixes.some((p) => resource.startsWith(p))) {
    out.push(notSupported(`${f}.resource`, resource, resourceFieldPaths));
  }
  out.push(...validateDivisor(resource, fs.divisor, f));
  return out;
}

const cpuDivisors = new Set(['1m', '1']);
const byteDivisors = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const byteDivisorList = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

function validateDivisor(resource: string, divisor: unknown, f: string): Violation[] {
  if (typeof divisor !== 'string' && typeof divisor !== 'number') return [];
  let shown: string;
  try {
    if (compareQuantityValues(parseQuantityValue(divisor), { unscaled: 0n, scale: 0 }) === 0) return [];
    shown = canonicalQuantity(divisor);
  } catch {
    return []; // not a quantity: the decoder refuses the object before validation
  }
  const out: Violation[] = [];
  const field = `${f}.divisor`;
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !cpuDivisors.has(shown)) {
    out.push(invalid(field, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if ((resource === 'limits.memory' || resource === 'requests.memory') && !byteDivisors.has(shown)) {
    out.push(invalid(field, resource, `only divisor's values ${byteDivisorList} are supported with the memory resource`));
  } else if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !byteDivisors.has(shown)) {
    out.push(invalid(field, resource, `only divisor's values ${byteDivisorList} are supported with the local ephemeral storage resource`));
  }
  if (hugePagePrefixes.some((p) => resource.startsWith(p)) && !byteDivisors.has(shown)) {
    out.push(invalid(field, resource, `only divisor's values ${byteDivisorList} are supported with the hugepages resource`));
  }
  return out;
}
