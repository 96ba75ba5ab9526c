// A kind's TypeBox schema (shared/api) → its CRD openAPIV3Schema, with the Kubernetes types it references expanded
// from Kubernetes' generated OpenAPI definitions (scripts/openapi-defs.ts) the way controller-gen writes them:
// list and map markers and `required` kept, `+default` markers kept (zero-value defaults, which only openapi-gen
// writes, dropped), `+enum` lists and strategic-merge-patch extensions dropped (controller-gen writes neither),
// Quantity and IntOrString as int-or-string, metav1.Time as a date-time string. Property order does not matter to
// the apiserver; the YAML writer sorts keys as controller-gen's output is sorted.
import type { TSchema } from '@sinclair/typebox';
import { CORE_OPEN, CORE_REF, CORE_SCHEMALESS, crdRequired } from '../shared/api/schema.js';

export type JSONSchemaProps = Record<string, unknown>;
export type Definitions = Readonly<Record<string, JSONSchemaProps>>;

const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
const INT_OR_STRING = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
/** Types whose definitions are not plain structs: their CRD form, as controller-gen writes it. */
const SPECIAL: Readonly<Record<string, (open: boolean) => JSONSchemaProps>> = {
  'k8s.io/apimachinery/pkg/api/resource.Quantity': (open) => ({ ...INT_OR_STRING, ...(open ? {} : { pattern: QUANTITY_PATTERN }) }),
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': () => ({ ...INT_OR_STRING }),
  'k8s.io/apimachinery/pkg/apis/meta/v1.Time': () => ({ type: 'string', format: 'date-time' }),
  'k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime': () => ({ type: 'string', format: 'date-time' }),
};
/** Keywords that constrain values: left out of an open (documentation-only) expansion. */
const CONSTRAINTS = new Set(['required', 'default', 'enum', 'pattern', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems']);
const PASSED = new Set(['description', 'type', 'format', 'enum', 'default', 'pattern', 'anyOf', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource']);
const isZero = (v: unknown) => v === '' || v === 0 || v === false || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

export interface CrdSchemaOptions {
  /**
   * false: an open Kubernetes type (CORE_OPEN) is written as upstream's schemaless field, an object that keeps
   * unknown fields, without the documentation-only expansion. For a version kubectl explain does not default to,
   * so that a CRD serving two versions still fits kubectl apply's 256 KiB annotation. Default true.
   */
  documentOpenTypes?: boolean;
}

/** The CRD schema of a TypeBox schema built with shared/api/schema.ts. Throws on an unknown definition name. */
export function crdSchema(schema: TSchema, defs: Definitions, options: CrdSchemaOptions = {}): JSONSchemaProps {
  return convert(schema as JSONSchemaProps, defs, false, options.documentOpenTypes ?? true);
}

const SCHEMALESS: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function convert(s: JSONSchemaProps, defs: Definitions, open: boolean, documentOpen: boolean): JSONSchemaProps {
  if (typeof s[CORE_REF] === 'string') {
    // Only the Kubernetes type is open; fields kruise adds to it are typed as upstream's.
    const isOpen = open || s[CORE_OPEN] === true;
    if (!defs[s[CORE_REF]]) throw new Error(`no OpenAPI definition ${s[CORE_REF]}`);
    const base = isOpen && (!documentOpen || s[CORE_SCHEMALESS] === true) ? { ...SCHEMALESS, description: defs[s[CORE_REF]]!.description } : expand(s[CORE_REF], defs, isOpen, 0);
    const own = convertOwn(s, defs, open, documentOpen);
    const properties = { ...(base.properties as object | undefined), ...(own.properties as object | undefined) };
    const required = [...(base.required as string[] | undefined ?? []), ...(own.required as string[] | undefined ?? [])];
    return compact({ ...base, ...own, properties: Object.keys(properties).length ? properties : undefined, required: sorted(required) });
  }
  return convertOwn(s, defs, open, documentOpen);
}

/** controller-gen lists required fields sorted. */
const sorted = (names: readonly string[]) => (names.length ? [...new Set(names)].sort() : undefined);

function convertOwn(s: JSONSchemaProps, defs: Definitions, open: boolean, documentOpen: boolean): JSONSchemaProps {
  const out: JSONSchemaProps = {};
  for (const [k, v] of Object.entries(s)) if (PASSED.has(k) && !(open && CONSTRAINTS.has(k))) out[k] = v;
  if (s.properties) {
    const props = s.properties as Record<string, TSchema>;
    out.properties = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, convert(p as JSONSchemaProps, defs, open, documentOpen)]));
    const required = sorted(Object.entries(props).filter(([, p]) => crdRequired(p)).map(([k]) => k));
    if (required && !open) out.required = required;
    if (open) out['x-kubernetes-preserve-unknown-fields'] = true;
  }
  if (s.items) out.items = convert(s.items as JSONSchemaProps, defs, open, documentOpen);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.additionalProperties = convert(s.additionalProperties as JSONSchemaProps, defs, open, documentOpen);
  return out;
}

/** One Kubernetes definition in CRD form; a property's own description wins over its type's, as in controller-gen. */
function expand(name: string, defs: Definitions, open: boolean, depth: number): JSONSchemaProps {
  if (depth > 32) throw new Error(`${name}: definitions nest deeper than 32 (a cycle?)`);
  const special = SPECIAL[name];
  const def = defs[name];
  if (!def) throw new Error(`no OpenAPI definition ${name}`);
  if (special) return { description: def.description, ...special(open) };
  return fromDef(def, defs, open, depth);
}

function fromDef(d: JSONSchemaProps, defs: Definitions, open: boolean, depth: number, optional = false): JSONSchemaProps {
  if (typeof d.$ref === 'string') {
    const target = expand(d.$ref, defs, open, depth + 1);
    return compact({ ...target, ...pick(d, open, optional), description: d.description ?? target.description });
  }
  const out = pick(d, open, optional);
  if (Array.isArray(d.type)) out.type = d.type[0];
  if (out.format === '' || out.format === 'int-or-string') delete out.format;
  if (d.properties) {
    const required = new Set(Array.isArray(d.required) ? d.required as string[] : []);
    out.properties = Object.fromEntries(Object.entries(d.properties as Record<string, JSONSchemaProps>)
      .map(([k, p]) => [k, fromDef(p, defs, open, depth + 1, !required.has(k))]));
    if (open) out['x-kubernetes-preserve-unknown-fields'] = true;
  }
  if (d.items) out.items = fromDef(d.items as JSONSchemaProps, defs, open, depth + 1);
  if (d.additionalProperties && typeof d.additionalProperties === 'object') {
    out.additionalProperties = fromDef(d.additionalProperties as JSONSchemaProps, defs, open, depth + 1);
  }
  return out;
}

/**
 * The keywords of a definition node a CRD takes. No enum: controller-gen ignores +enum. Defaults: openapi-gen also
 * writes the zero value of every required (non-omitempty) field and `{}` for struct fields; only a `+default`
 * marker, which controller-gen honours, gives an optional field one.
 */
function pick(d: JSONSchemaProps, open: boolean, optional: boolean): JSONSchemaProps {
  const out: JSONSchemaProps = {};
  for (const [k, v] of Object.entries(d)) {
    if (!PASSED.has(k) || k === 'enum' || (open && CONSTRAINTS.has(k))) continue;
    if (k === 'default' && isZero(v) && (!optional || typeof v === 'object')) continue;
    out[k] = v;
  }
  if (Array.isArray(d.required) && d.required.length && !open) out.required = sorted(d.required as string[]);
  return out;
}

function compact(o: JSONSchemaProps): JSONSchemaProps {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
