// SidecarSet v1alpha1 ⇄ v1beta1, as OpenKruise v1.9's apis/apps/v1alpha1/sidecarset_conversion.go converts them
// (spec/openkruise-v1.9.md §2.2; v1beta1 is the hub). JSON to JSON: every field the rules do not name is carried over
// as is, unknown ones included (upstream decodes into Go types and drops those; §2.3 allows keeping them). Neither
// function changes its argument; parts the rules do not touch are shared with it, not copied.
//
// What upstream loses, this loses too (no annotation keeps it): a v1alpha1 `spec.namespace` becomes a namespaceSelector
// and never comes back, and a namespaceSelector set next to it is replaced; a custom-version label with an empty value
// becomes an empty (omitted) customVersion and is not restored.
import { KRUISE_API_VERSION } from '../../api/meta.js';
import { SidecarSetCustomVersionLabel, type SidecarSet as SidecarSetV1alpha1 } from '../../api/sidecarset.js';
import { KRUISE_API_VERSION_V1BETA1, NamespaceNameLabel, type SidecarSet as SidecarSetV1beta1 } from '../../api/v1beta1/sidecarset.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A new object: `o` with `key` set in its place (appended when new) or, for undefined, removed. Key order is kept, so
 * the converted JSON reads like its source; an own `__proto__` key stays a key.
 */
function withKey(o: Json, key: string, value: unknown): Json {
  const out: Json = {};
  for (const k of Object.keys(o)) {
    if (k !== key) define(out, k, o[k]);
    else if (value !== undefined) define(out, k, value);
  }
  if (value !== undefined && !Object.hasOwn(o, key)) define(out, key, value);
  return out;
}

function define(o: Json, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/** metadata with `labels` replaced; an empty map is dropped, as Go's omitempty drops it. */
function withLabels(metadata: Json, labels: Json): Json {
  return withKey(metadata, 'labels', Object.keys(labels).length > 0 ? labels : undefined);
}

/**
 * v1alpha1 → v1beta1: the custom-version label, when present (even empty), moves to `spec.customVersion`; a non-empty
 * `spec.namespace` becomes `namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: <namespace>}}`, replacing
 * any selector set next to it; `spec.namespace` is gone either way. Status is copied.
 */
export function sidecarSetToV1beta1(src: SidecarSetV1alpha1): SidecarSetV1beta1 {
  const obj = src as Json;
  let out = withKey(obj, 'apiVersion', KRUISE_API_VERSION_V1BETA1);
  let customVersion: string | undefined;
  const metadata = obj.metadata;
  if (isObject(metadata) && isObject(metadata.labels) && Object.hasOwn(metadata.labels, SidecarSetCustomVersionLabel)) {
    customVersion = String(metadata.labels[SidecarSetCustomVersionLabel] ?? '');
    out = withKey(out, 'metadata', withLabels(metadata, withKey(metadata.labels, SidecarSetCustomVersionLabel, undefined)));
  }
  if (!isObject(obj.spec)) return customVersion ? (withKey(out, 'spec', { customVersion }) as SidecarSetV1beta1) : (out as SidecarSetV1beta1);
  const spec = obj.spec;
  let next = withKey(spec, 'namespace', undefined);
  if (typeof spec.namespace === 'string' && spec.namespace !== '') {
    next = withKey(next, 'namespaceSelector', { matchLabels: { [NamespaceNameLabel]: spec.namespace } });
  }
  // customVersion is omitempty in Go: an empty label value leaves no field (and a v1alpha1 object never has one).
  next = withKey(next, 'customVersion', customVersion || undefined);
  return withKey(out, 'spec', next) as SidecarSetV1beta1;
}

/**
 * v1beta1 → v1alpha1: a non-empty `spec.customVersion` becomes the custom-version label (overwriting one of another
 * value; an empty one leaves the labels alone); `namespaceSelector` is copied and `spec.namespace` never produced.
 */
export function sidecarSetToV1alpha1(src: SidecarSetV1beta1): SidecarSetV1alpha1 {
  const obj = src as Json;
  let out = withKey(obj, 'apiVersion', KRUISE_API_VERSION);
  if (!isObject(obj.spec)) return out as SidecarSetV1alpha1;
  const spec = obj.spec;
  const customVersion = spec.customVersion;
  if (typeof customVersion === 'string' && customVersion !== '') {
    const metadata = isObject(obj.metadata) ? obj.metadata : {};
    const labels = isObject(metadata.labels) ? metadata.labels : {};
    out = withKey(out, 'metadata', withKey(metadata, 'labels', withKey(labels, SidecarSetCustomVersionLabel, customVersion)));
  }
  return withKey(out, 'spec', withKey(withKey(spec, 'customVersion', undefined), 'namespace', undefined)) as SidecarSetV1alpha1;
}

/** The version a SidecarSet object says it is in; anything but v1beta1 is read as v1alpha1 (the served default). */
export const isV1beta1SidecarSet = (o: { apiVersion?: string } | undefined): boolean => o?.apiVersion === KRUISE_API_VERSION_V1BETA1;

/**
 * The form the pod webhook, the SidecarSet controller and the CLI work on (v1alpha1, whose `namespace` and
 * custom-version label they already read): a v1beta1 object converted down, any other returned as it is.
 */
export function internalSidecarSet<T extends { apiVersion?: string }>(o: T): T {
  return isV1beta1SidecarSet(o) ? (sidecarSetToV1alpha1(o as SidecarSetV1beta1) as T) : o;
}
