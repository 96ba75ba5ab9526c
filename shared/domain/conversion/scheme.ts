// The kinds a conversion request may name and how each converts, as the Kruise manager's scheme and controller-runtime
// v0.20's conversion webhook decide it (spec/openkruise-v1.9.md §2.3): v1beta1 is the hub of every kind that has it,
// v1alpha1 converts to and from it. Only SidecarSet's CRD sends requests (conversion Webhook); ImagePullJob,
// ImageListPullJob and NodeImage use None, but upstream's webhook converts them too, and so does this one.
import { KRUISE_API_VERSION } from '../../api/meta.js';
import { KRUISE_API_VERSION_V1BETA1 } from '../../api/v1beta1/sidecarset.js';
import { sidecarSetToV1alpha1, sidecarSetToV1beta1 } from './sidecarset.js';

type Json = Record<string, unknown>;

/** A conversion that failed; its message is what the ConversionReview's result carries. */
export class ConversionError extends Error {
  override name = 'ConversionError';
}

interface Registered {
  /** Go's %T of the type, as upstream's messages print it. */
  goType: string;
  /** Present on a spoke: to and from the hub version of its kind. */
  spoke?: { toHub: (o: Json) => Json; fromHub: (o: Json) => Json };
}

/** The name upstream's scheme reports (runtime.NewScheme called from a module path: the callsite inside apimachinery). */
export const SCHEME_NAME = 'pkg/runtime/scheme.go:100';

const withApiVersion = (apiVersion: string) => (o: Json): Json => ({ ...o, apiVersion });

/** v1beta1 → v1alpha1 NodeImage: the pull-secret refs lose `mode`, which v1alpha1's ReferenceObject does not have. */
function nodeImageToV1alpha1(o: Json): Json {
  const out = withApiVersion(KRUISE_API_VERSION)(o);
  const spec = o.spec as { images?: Record<string, { pullSecrets?: unknown }> } | undefined;
  const images = spec?.images;
  if (typeof images !== 'object' || images === null) return out;
  const next: Record<string, unknown> = {};
  for (const [name, image] of Object.entries(images)) {
    const refs = image?.pullSecrets;
    next[name] = Array.isArray(refs) && refs.some((r) => r && typeof r === 'object' && 'mode' in r)
      ? { ...image, pullSecrets: refs.map((r) => (r && typeof r === 'object' ? (({ mode: _mode, ...rest }) => rest)(r as Json) : r)) }
      : image;
  }
  return { ...out, spec: { ...spec, images: next } };
}

const sameFields = { toHub: withApiVersion(KRUISE_API_VERSION_V1BETA1), fromHub: withApiVersion(KRUISE_API_VERSION) };

const SCHEME: ReadonlyMap<string, Registered> = new Map([
  [`${KRUISE_API_VERSION}/SidecarSet`, { goType: '*v1alpha1.SidecarSet', spoke: { toHub: sidecarSetToV1beta1 as never, fromHub: sidecarSetToV1alpha1 as never } }],
  [`${KRUISE_API_VERSION_V1BETA1}/SidecarSet`, { goType: '*v1beta1.SidecarSet' }],
  [`${KRUISE_API_VERSION}/ImagePullJob`, { goType: '*v1alpha1.ImagePullJob', spoke: sameFields }],
  [`${KRUISE_API_VERSION_V1BETA1}/ImagePullJob`, { goType: '*v1beta1.ImagePullJob' }],
  [`${KRUISE_API_VERSION}/ImageListPullJob`, { goType: '*v1alpha1.ImageListPullJob', spoke: sameFields }],
  [`${KRUISE_API_VERSION_V1BETA1}/ImageListPullJob`, { goType: '*v1beta1.ImageListPullJob' }],
  [`${KRUISE_API_VERSION}/NodeImage`, { goType: '*v1alpha1.NodeImage', spoke: { toHub: sameFields.toHub, fromHub: nodeImageToV1alpha1 } }],
  [`${KRUISE_API_VERSION_V1BETA1}/NodeImage`, { goType: '*v1beta1.NodeImage' }],
  [`${KRUISE_API_VERSION}/ContainerRecreateRequest`, { goType: '*v1alpha1.ContainerRecreateRequest' }],
  [`${KRUISE_API_VERSION}/NodePodProbe`, { goType: '*v1alpha1.NodePodProbe' }],
  [`${KRUISE_API_VERSION}/PodProbeMarker`, { goType: '*v1alpha1.PodProbeMarker' }],
  [`${KRUISE_API_VERSION}/ResourceDistribution`, { goType: '*v1alpha1.ResourceDistribution' }],
]);

function registered(apiVersion: string, kind: string): Registered {
  const r = SCHEME.get(`${apiVersion}/${kind}`);
  if (!r) throw new ConversionError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(SCHEME_NAME)}`);
  return r;
}

/** Whether a kind in that version is one /convert knows (a CRD's conversion must only name these). */
export const isRegistered = (apiVersion: string, kind: string): boolean => SCHEME.has(`${apiVersion}/${kind}`);

/**
 * Converts one object (its own apiVersion and kind name the source) to `desiredApiVersion`, or throws ConversionError
 * with controller-runtime's message: an unregistered source or target, a target equal to the source, or a pair with
 * no conversion. `obj` is not changed.
 */
export function convertObject(obj: Json, desiredApiVersion: string): Json {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const src = registered(apiVersion, kind);
  const dst = registered(desiredApiVersion, kind);
  if (apiVersion === desiredApiVersion) throw new ConversionError(`conversion is not allowed between same type ${src.goType}`);
  if (!src.spoke && dst.spoke) return dst.spoke.fromHub(obj);
  if (src.spoke && !dst.spoke) return src.spoke.toHub(obj);
  // Two spokes go through the hub; with one spoke version per kind here, that leaves pairs with no conversion at all.
  throw new ConversionError(`${src.goType} is not convertible to ${dst.goType}`);
}
