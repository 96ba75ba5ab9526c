// Building blocks of the apps.kruise.io API schemas. Each kind's TypeBox schema is the one source of its TS type
// (Static<typeof X>) and of its CRD's openAPIV3Schema (scripts/crds.ts). Every field carries a description, as the
// field docs of OpenKruise's Go types state it; the markers match what controller-gen puts in upstream's CRDs.
// Kubernetes' own types (core/v1, meta/v1) are references here, filled in by the generator from the OpenAPI
// definitions Kubernetes generates from its Go types, so the TS side keeps client-node's types for them.
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { OptionalKind, Type, type SchemaOptions, type Static, type TProperties, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** Names the Kubernetes definition the generator expands in place (`k8s.io/api/core/v1.Container`). */
export const CORE_REF = 'x-kruise-ts-core';
/**
 * The expansion is documentation only, for what upstream leaves schemaless (`+kubebuilder:validation:Schemaless`,
 * `+kubebuilder:pruning:PreserveUnknownFields`): every object keeps unknown fields, and nothing is required,
 * defaulted or list-typed, so the stored object is what the user sent.
 */
export const CORE_OPEN = 'x-kruise-ts-open';
/**
 * An open type written schemaless in every CRD version (an object keeping unknown fields, no expansion), for the large
 * ones whose field docs `kubectl explain pod.spec.…` gives anyway: the SidecarSet CRD serves two versions and must
 * stay under kubectl apply's 256 KiB annotation.
 */
export const CORE_SCHEMALESS = 'x-kruise-ts-schemaless';
/** Optional in the TS type, required in the CRD (upstream's Go field has no omitempty). */
export const CRD_REQUIRED = 'x-kruise-ts-required';
/** Required in the TS type (kruise-ts always writes it), optional in the CRD as upstream's. */
export const CRD_OPTIONAL = 'x-kruise-ts-optional';

export const CORE_V1 = 'k8s.io/api/core/v1.';
export const META_V1 = 'k8s.io/apimachinery/pkg/apis/meta/v1.';

type Doc = SchemaOptions & { description: string };
const doc = (d: string | Doc): Doc => (typeof d === 'string' ? { description: d } : d);

export const Str = (d: string | Doc) => Type.String(doc(d));
export const Bool = (d: string | Doc) => Type.Boolean(doc(d));
export const Int32 = (d: string | Doc) => Type.Integer({ format: 'int32', ...doc(d) });
export const Int64 = (d: string | Doc) => Type.Integer({ format: 'int64', ...doc(d) });
/** metav1.Time: RFC 3339 text on the wire. */
export const Time = (d: string | Doc) => Type.String({ format: 'date-time', ...doc(d) });
/** intstr.IntOrString: a number, or a string such as "10%". */
export const IntOrStr = (d: string | Doc) =>
  Type.Unsafe<number | string>({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, ...doc(d) });
export const StrList = (d: string | Doc, item?: string) => Type.Array(Type.String(item ? { description: item } : {}), doc(d));
/** A Go map[string]T: a JSON object with any keys. */
export const MapOf = <T extends TSchema>(value: T, d: string | Doc) =>
  Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, ...doc(d) });
export const StrMap = (d: string | Doc) => MapOf(Type.String(), d);
export const Obj = <P extends TProperties>(d: string | Doc, properties: P) => Type.Object(properties, doc(d));

/** A Kubernetes type by its OpenAPI definition name; T is its client-node type. */
export const Core = <T>(name: string, d: string | Doc) => Type.Unsafe<T>({ [CORE_REF]: name, ...doc(d) });

/**
 * A Kubernetes type (a Core schema) with fields added (Go struct embedding, `json:",inline"`). `open` for
 * upstream's schemaless embeddings (see CORE_OPEN): the object keeps unknown fields, as upstream's.
 */
export function CoreWith<B extends TSchema, P extends TProperties>(base: B, properties: P, open = false): TUnsafe<Static<B> & Static<TObject<P>>> {
  return Type.Unsafe({
    ...base,
    ...(open ? { [CORE_OPEN]: true, 'x-kubernetes-preserve-unknown-fields': true } : {}),
    type: 'object',
    properties: Type.Object(properties).properties,
  });
}

/** Optional in TS, required in the CRD: see CRD_REQUIRED. */
export const CrdRequired = <T extends TSchema>(schema: T) => Type.Optional({ ...schema, [CRD_REQUIRED]: true } as T);
/** Required in TS, optional in the CRD: see CRD_OPTIONAL. */
export const CrdOptional = <T extends TSchema>(schema: T): T => ({ ...schema, [CRD_OPTIONAL]: true });

/** Whether a property is required in the CRD. */
export function crdRequired(property: TSchema): boolean {
  const p = property as TSchema & Record<string, unknown>;
  if (p[CRD_REQUIRED]) return true;
  if (p[CRD_OPTIONAL]) return false;
  return !(OptionalKind in p);
}

/** apiVersion, kind and metadata of every kind, as controller-gen documents them; spec and status are the kind's. */
export function KindSchema<S extends TSchema, St extends TSchema>(description: string, spec: S, status: St) {
  return Type.Object({
    apiVersion: Type.Optional(Str('APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources')),
    kind: Type.Optional(Str('Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds')),
    // The apiserver owns metadata's schema: a CRD may say it is an object and nothing else, not even a description.
    metadata: Type.Optional(Type.Unsafe<V1ObjectMeta>({ type: 'object' })),
    spec: Type.Optional(spec),
    status: Type.Optional(status),
  }, { description });
}
