// The two SidecarSet hashes OpenKruise stores in `kruise.io/sidecarset-hash` and
// `kruise.io/sidecarset-hash-without-image` (spec/webhooks.md §1.5). Pods carry copies of them and the upstream
// controller compares them byte for byte, so the payload must be Go's json.Marshal output exactly.
import { createHash } from 'node:crypto';
import type { SidecarContainer, SidecarSet } from '../api/sidecarset.js';
import { coreV1ContainerSchema } from './corev1-go-schema.js';
import { ALWAYS, goJson, OMITEMPTY, type GoSchema } from './go-json.js';

/**
 * kruise apps SidecarContainer: corev1.Container inlined, then kruise's own fields, in v1.9.0's order (the same in
 * v1alpha1 and v1beta1). The v1.9 fields are omitempty pointers, so a SidecarSet without them keeps its v1.8.4 hash
 * (spec/openkruise-v1.9.md §2.5).
 */
export const sidecarContainerSchema: GoSchema = {
  ...coreV1ContainerSchema,
  SidecarContainer: [
    ...coreV1ContainerSchema.Container!,
    ['podInjectPolicy', 'string', OMITEMPTY],
    ['upgradeStrategy', 'SidecarContainerUpgradeStrategy', OMITEMPTY],
    ['shareVolumePolicy', 'ShareVolumePolicy', OMITEMPTY],
    ['shareVolumeDevicePolicy', '*ShareVolumePolicy', OMITEMPTY],
    ['transferEnv', '[]TransferEnvVar', OMITEMPTY],
    ['resourcesPolicy', '*ResourcesPolicy', OMITEMPTY],
  ],
  ResourcesPolicy: [
    ['targetContainersMode', 'string', ALWAYS],
    ['targetContainersNameRegex', 'string', OMITEMPTY],
    ['resourcesExpr', 'ResourcesExpr', ALWAYS],
  ],
  ResourcesExpr: [
    ['limits', '*ResourceExpressions', OMITEMPTY],
    ['requests', '*ResourceExpressions', OMITEMPTY],
  ],
  ResourceExpressions: [
    ['cpu', 'string', OMITEMPTY],
    ['memory', 'string', OMITEMPTY],
  ],
  SidecarContainerUpgradeStrategy: [
    ['upgradeType', 'string', OMITEMPTY],
    ['hotUpgradeEmptyImage', 'string', OMITEMPTY],
  ],
  ShareVolumePolicy: [['type', 'string', OMITEMPTY]],
  TransferEnvVar: [
    ['sourceContainerName', 'string', OMITEMPTY],
    ['sourceContainerNameFrom', '*SourceContainerNameSource', OMITEMPTY],
    ['envName', 'string', OMITEMPTY],
    ['envNames', '[]string', OMITEMPTY],
  ],
  SourceContainerNameSource: [['fieldRef', '*ObjectFieldSelector', OMITEMPTY]],
};

/** rand.SafeEncodeString's alphabet: no vowels or look-alike characters. */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The Go-JSON of {"containers": spec.containers} — plus "initContainers" (all of them) when any init container is a
 * native sidecar (restartPolicy Always). A missing containers list is Go's nil slice and hashes as `null`.
 */
export function sidecarSetHashPayload(s: SidecarSet): string {
  const containers = goJson(s.spec?.containers, '[]SidecarContainer', sidecarContainerSchema);
  const inits = s.spec?.initContainers;
  if (!Array.isArray(inits) || !inits.some((c) => c?.restartPolicy === 'Always')) return `{"containers":${containers}}`;
  return `{"containers":${containers},"initContainers":${goJson(inits, '[]SidecarContainer', sidecarContainerSchema)}}`;
}

/** `kruise.io/sidecarset-hash`. Compute it on the defaulted SidecarSet, as the upstream webhook does. */
export function sidecarSetHash(s: SidecarSet): string {
  return safeEncode(sha256Hex(sidecarSetHashPayload(s)));
}

/** `kruise.io/sidecarset-hash-without-image`: the same hash with every (init) container's image blanked. */
export function sidecarSetHashWithoutImage(s: SidecarSet): string {
  const blank = (cs: SidecarContainer[] | undefined) => cs?.map((c) => ({ ...c, image: '' }));
  const spec = s.spec ?? {};
  return sidecarSetHash({ ...s, spec: { ...spec, containers: blank(spec.containers), initContainers: blank(spec.initContainers) } });
}

function sha256Hex(payload: string): string {
  return createHash('sha256').update(payload, 'utf8').digest('hex');
}

/** rand.SafeEncodeString: each character replaced by the alphabet entry at its code point modulo 27. */
export function safeEncode(s: string): string {
  let out = '';
  for (const c of s) out += SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length];
  return out;
}
