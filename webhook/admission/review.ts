// The AdmissionReview envelope (admission.k8s.io v1 and v1beta1 have the same JSON shape for what we read).
// Only the envelope is schema-checked: `object`/`oldObject` stay Unknown and untouched so that fields we do not
// model survive into the diff (style P3, kubernetes-client/javascript#2962).
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

export const ADMISSION_API_VERSIONS = ['admission.k8s.io/v1', 'admission.k8s.io/v1beta1'] as const;
export type AdmissionApiVersion = (typeof ADMISSION_API_VERSIONS)[number];

const GroupVersionKind = Type.Object({ group: Type.String(), version: Type.String(), kind: Type.String() });

export const AdmissionRequestSchema = Type.Object({
  uid: Type.String({ minLength: 1 }),
  kind: GroupVersionKind,
  resource: Type.Optional(Type.Object({ group: Type.String(), version: Type.String(), resource: Type.String() })),
  subResource: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  namespace: Type.Optional(Type.String()),
  operation: Type.Union([Type.Literal('CREATE'), Type.Literal('UPDATE'), Type.Literal('DELETE'), Type.Literal('CONNECT')]),
  userInfo: Type.Optional(Type.Object({ username: Type.Optional(Type.String()) })),
  object: Type.Optional(Type.Unknown()),
  oldObject: Type.Optional(Type.Unknown()),
  dryRun: Type.Optional(Type.Boolean()),
  options: Type.Optional(Type.Unknown()),
});

export const AdmissionReviewSchema = Type.Object({
  apiVersion: Type.Union(ADMISSION_API_VERSIONS.map((v) => Type.Literal(v))),
  kind: Type.Literal('AdmissionReview'),
  request: AdmissionRequestSchema,
});

export type AdmissionRequest = Static<typeof AdmissionRequestSchema>;
export type AdmissionReview = Static<typeof AdmissionReviewSchema>;

const check = TypeCompiler.Compile(AdmissionReviewSchema);

export type DecodeResult = { ok: true; review: AdmissionReview } | { ok: false; message: string };

/** Checks the envelope; on failure returns a message naming the first few offending fields. */
export function decodeReview(body: unknown): DecodeResult {
  if (check.Check(body)) return { ok: true, review: body };
  const problems = [...check.Errors(body)].slice(0, 5).map((e) => `${e.path || '/'}: ${e.message}`);
  return { ok: false, message: `malformed AdmissionReview (want apiVersion ${ADMISSION_API_VERSIONS.join(' or ')}, kind AdmissionReview, request.uid/kind/operation): ${problems.join('; ')}` };
}
