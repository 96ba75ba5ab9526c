// The strategic merge patch a WorkloadSpread subset's `patch` is applied with (upstream: strategicpatch.StrategicMergePatch
// against corev1.Pod; spec/availability-guards.md §12.3 step 5, §11 rule 10). Objects merge key by key (`null`
// deletes); lists replace, except the pod lists Kubernetes tags `patchStrategy:merge`, which merge element by element
// on their merge key (an element with `"$patch": "delete"` removes its match) or, for finalizers, as a set. A map
// carrying `"$patch": "replace"` replaces; other directives (`$setElementOrder`, `$retainKeys`,
// `$deleteFromPrimitiveList`) are dropped (docs/compatibility.md, WorkloadSpread). Cost: linear in document + patch.

type Json = Record<string, unknown>;
type Kind = 'Pod' | 'ObjectMeta' | 'PodSpec' | 'Container' | 'Any';

export class StrategicMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategicMergeError';
  }
}

/** Per struct kind: the fields that are structs of a known kind, and the merge-keyed lists with their element kind. */
const FIELDS: Record<Kind, Record<string, Kind>> = {
  Pod: { metadata: 'ObjectMeta', spec: 'PodSpec' },
  ObjectMeta: {},
  PodSpec: {},
  Container: {},
  Any: {},
};
const MERGE_LISTS: Record<Kind, Record<string, readonly [key: string, element: Kind]>> = {
  Pod: {},
  ObjectMeta: { ownerReferences: ['uid', 'Any'] },
  PodSpec: {
    containers: ['name', 'Container'], initContainers: ['name', 'Container'], ephemeralContainers: ['name', 'Container'],
    volumes: ['name', 'Any'], imagePullSecrets: ['name', 'Any'], hostAliases: ['ip', 'Any'],
    topologySpreadConstraints: ['topologyKey', 'Any'], schedulingGates: ['name', 'Any'], resourceClaims: ['name', 'Any'],
  },
  Container: { env: ['name', 'Any'], ports: ['containerPort', 'Any'], volumeMounts: ['mountPath', 'Any'], volumeDevices: ['devicePath', 'Any'] },
  Any: {},
};
/** Lists of scalars merged as sets (`patchStrategy:merge` on []string). */
const SET_LISTS: Partial<Record<Kind, readonly string[]>> = { ObjectMeta: ['finalizers'] };

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObj(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$') && x !== null) out[k] = stripDirectives(x);
  return out;
}

function mergeKeyed(doc: unknown[], patch: unknown[], key: string, element: Kind, field: string): unknown[] {
  const out = doc.map((e) => clone(e));
  const index = new Map<unknown, number>();
  out.forEach((e, i) => { if (isObj(e) && e[key] !== undefined) index.set(e[key], i); });
  const removed = new Set<number>();
  for (const p of patch) {
    if (!isObj(p)) throw new StrategicMergeError(`${field}: a list with merge key ${key} has a non-object element`);
    if (p[key] === undefined) throw new StrategicMergeError(`map: ${JSON.stringify(p)} does not contain declared merge key: ${key}`);
    const at = index.get(p[key]);
    if (p.$patch === 'delete') { if (at !== undefined) removed.add(at); continue; }
    if (at !== undefined) out[at] = mergeValue(out[at], p, element, field);
    else { index.set(p[key], out.length); out.push(stripDirectives(p)); }
  }
  return out.filter((_, i) => !removed.has(i));
}

function mergeValue(doc: unknown, patch: unknown, kind: Kind, field: string): unknown {
  if (!isObj(patch)) return clone(patch);
  if (patch.$patch === 'replace') return stripDirectives(Object.fromEntries(Object.entries(patch).filter(([k]) => k !== '$patch')));
  if (patch.$patch === 'delete') return undefined;
  const out: Json = isObj(doc) ? { ...doc } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) { delete out[k]; continue; }
    // Own properties only: a user's key such as `constructor` names no field here.
    const keyed = Object.hasOwn(MERGE_LISTS[kind], k) ? MERGE_LISTS[kind][k] : undefined;
    if (keyed && Array.isArray(v)) { out[k] = mergeKeyed(Array.isArray(out[k]) ? (out[k] as unknown[]) : [], v, keyed[0], keyed[1], `${field}.${k}`); continue; }
    if (SET_LISTS[kind]?.includes(k) && Array.isArray(v)) {
      const prev = Array.isArray(out[k]) ? (out[k] as unknown[]) : [];
      const seen = new Set(prev);
      out[k] = [...prev, ...v.filter((x) => !seen.has(x) && seen.add(x))];
      continue;
    }
    const merged = mergeValue(out[k], v, (Object.hasOwn(FIELDS[kind], k) ? FIELDS[kind][k] : undefined) ?? 'Any', `${field}.${k}`);
    if (merged === undefined) delete out[k];
    else out[k] = isObj(v) ? merged : stripDirectives(merged);
  }
  return out;
}

/** `patch` applied to the pod-shaped `doc` (a new object; neither argument is changed). */
export function strategicMergePod(doc: Json, patch: unknown): Json {
  if (!isObj(patch)) throw new StrategicMergeError('invalid JSON document: the patch is not an object');
  return mergeValue(doc, patch, 'Pod', '') as Json;
}
