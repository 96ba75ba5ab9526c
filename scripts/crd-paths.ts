// The field paths of a CRD's structural schema, one per line: `<version> <path> <type>[ <flags>]`, e.g.
// `v1alpha1 spec.replicas integer`, `v1alpha1 spec.template object preserve`, `v1beta1 status.conditions[] object`.
// Paths under `x-kubernetes-preserve-unknown-fields` stop there (anything fits); `{}` marks map values, `[]` list items.
// Flags: `preserve`, `int-or-string`, `required` (the parent object lists the field as required). Used to compare the
// CRDs kruise-ts ships with OpenKruise v1.9.0's config/crd/bases (scripts/crd-parity.test.ts): a path upstream has and
// kruise-ts lacks is pruned from what OpenKruise clients write; one kruise-ts has and upstream lacks fails their
// strict decoders; a field kruise-ts requires and upstream does not refuses objects OpenKruise clients write.

type Schema = Record<string, unknown>;

function typeOf(s: Schema): string {
  if (s['x-kubernetes-int-or-string']) return 'int-or-string';
  return typeof s.type === 'string' ? s.type : 'any';
}

function walk(s: Schema, path: string, required: boolean, out: string[], depth: number): void {
  if (depth > 64) throw new Error(`schema too deep at ${path}`);
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const flags = [preserve ? 'preserve' : '', required ? 'required' : ''].filter(Boolean);
  if (path) out.push([path, typeOf(s), ...flags].join(' '));
  if (preserve) return;
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  for (const k of Object.keys(props).sort()) walk(props[k]!, path ? `${path}.${k}` : k, req.has(k), out, depth + 1);
  if (s.items && typeof s.items === 'object') walk(s.items as Schema, `${path}[]`, false, out, depth + 1);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties as Schema, `${path}{}`, false, out, depth + 1);
}

/** Every served version's paths, sorted. `crd` is a parsed CustomResourceDefinition. */
export function crdPaths(crd: Schema): string[] {
  const versions = ((crd.spec as Schema)?.versions ?? []) as Schema[];
  const out: string[] = [];
  for (const v of versions) {
    if (v.served === false) continue;
    const schema = ((v.schema as Schema)?.openAPIV3Schema ?? {}) as Schema;
    const lines: string[] = [];
    walk(schema, '', false, lines, 0);
    // apiVersion/kind/metadata are the apiserver's, whatever either schema says of them.
    out.push(...lines.filter((l) => !/^(apiVersion|kind|metadata)[ .]/.test(l)).map((l) => `${v.name as string} ${l}`));
  }
  return out.sort();
}

export interface KnownPath { preserve: boolean }

/**
 * The fields of `value` (an object's spec or status, at `path` such as "v1alpha1 status") that a strict decoder
 * built from `known` (paths as crdPaths lists them) would refuse: what Go's DisallowUnknownFields reports as
 * `json: unknown field "x"`. Nothing under a preserved path is judged; a map's keys are values of its `{}` path.
 */
export function unknownFields(value: unknown, known: ReadonlyMap<string, KnownPath>, path: string): string[] {
  if (known.get(path)?.preserve) return [];
  if (Array.isArray(value)) return value.flatMap((v) => unknownFields(v, known, `${path}[]`));
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  const isMap = known.has(`${path}{}`);
  for (const [k, v] of Object.entries(value)) {
    const child = isMap ? `${path}{}` : `${path}.${k}`;
    if (!known.has(child)) { out.push(isMap ? `${path}{${k}}` : child); continue; }
    out.push(...unknownFields(v, known, child));
  }
  return out;
}
