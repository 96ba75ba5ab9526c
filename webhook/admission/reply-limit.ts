// The largest AdmissionReview reply worth sending (review N-H2). A reply is almost all base64 patch, and a patch the
// apiserver could never apply only costs memory here (held until the socket drains) and CPU there.
import { encodeReview } from './encode.js';
import { errored, type AdmissionResult } from './response.js';

/**
 * 3 MiB: the apiserver's own bound on a write request's body (k8s.io/apiserver server.Config MaxRequestBodyBytes,
 * 3 MiB: twice etcd's 1.5 MiB request limit, "a request body might be encoded in json, and is converted to proto when
 * persisted"). A reply over it carries more than 2.25 MiB of JSON Patch (base64 is 4/3), which is content added to the
 * object in JSON with op and path overhead around each value; the object the apiserver would then have to store is
 * beyond what it accepts as JSON from any client, and beyond etcd's 1.5 MiB once in protobuf for any patch whose ops
 * are not mostly paths. The mutators that can approach it are the share-volume policies (each shared mount or env var
 * copied into every sharing sidecar, shared/domain/inject/share.ts); no real pod gets near it.
 */
export const MAX_ADMISSION_REPLY_BYTES = 3 * 1024 * 1024;

/**
 * The encoded reply, or, when it would exceed `max` bytes, the encoded refusal (400, allowed: false) that says why:
 * the apiserver then fails the request with that message instead of receiving a patch it cannot store.
 */
export function encodeBoundedReview(apiVersion: string, uid: string, result: AdmissionResult, max = MAX_ADMISSION_REPLY_BYTES): { bytes: Buffer; refused?: number } {
  const bytes = encodeReview(apiVersion, uid, result);
  if (bytes.length <= max) return { bytes };
  const what = result.patch !== undefined ? `the mutation's JSON Patch (${result.patch.length} bytes in base64)` : 'the admission response';
  const refusal = errored(
    400,
    new Error(
      `${what} would make a ${bytes.length}-byte reply, over the ${max} bytes the apiserver could apply: the mutated object ` +
        "would exceed the apiserver's request size limit (3 MiB, twice etcd's 1.5 MiB object limit). Reduce what the SidecarSets " +
        'inject or share into this object (e.g. volumeMounts and subPathExpr env vars shared with shareVolumePolicy)',
    ),
  );
  return { bytes: encodeReview(apiVersion, uid, refusal), refused: bytes.length };
}
