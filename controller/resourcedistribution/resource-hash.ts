// The `kruise.io/resourcedistribution.resource.hashcode` annotation (spec/daemon-and-controllers.md §5.3): lowercase
// hex SHA-256 of the raw JSON bytes of `spec.resource` as the controller received them. Upstream hashes the
// RawExtension's bytes, which are a slice of the apiserver's response; we only have the parsed value, so we re-create
// those bytes the way the apiserver writes an unstructured object (Go encoding/json over map[string]interface{}).
import { createHash } from 'node:crypto';
import { compareBytewise, goString } from '../../shared/domain/go-json.js';

/**
 * JSON as kube-apiserver serves an unstructured (custom resource) value: compact, map keys sorted by their UTF-8
 * bytes, Go's string escaping with HTML escapes (`<` → `\u003c`). Numbers print as Go prints the int64 or float64
 * the apiserver decoded them into, which for JavaScript numbers is `String(n)` (same shortest digits and the same
 * exponent thresholds, 1e-6 and 1e21); integers beyond 2^53 were already rounded by JSON.parse.
 */
export function unstructuredJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return goString(value);
    case 'boolean':
      return String(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`unstructuredJson: ${value} has no JSON form`);
      return String(value);
    case 'object':
      if (Array.isArray(value)) return `[${value.map(unstructuredJson).join(',')}]`;
      return `{${Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort(compareBytewise)
        .map((k) => `${goString(k)}:${unstructuredJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
    default:
      throw new Error(`unstructuredJson: cannot encode a ${typeof value}`);
  }
}

/** The hashcode annotation's value for an RD's `spec.resource`. */
export function resourceHash(resource: unknown): string {
  return createHash('sha256').update(unstructuredJson(resource), 'utf8').digest('hex');
}
