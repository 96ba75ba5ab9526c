// /validate-apps-kruise-io-sidecarset (v1.9; v1.8's -v1alpha1- path too, paths.ts) (spec §3). Denials use 403 where
// upstream uses 500 (docs/compatibility.md): a 500 tells clients "retry", while these are permanent field errors.
//
// v1.9 validates every SidecarSet as v1beta1 (spec/openkruise-v1.9.md §2.4): a v1alpha1 object, its old object and
// every other SidecarSet are converted first, so `namespace` arrives as a metadata.name namespaceSelector (the rule
// "namespace and namespaceSelector are exclusive" is gone: namespace wins). The validator reads the v1alpha1 shape,
// so the v1beta1 view is handed to it converted back down, which never has `namespace` (v1beta1 → v1alpha1 keeps
// everything else). An unknown version is validated as upstream decodes it: an empty object.
import { KRUISE_API_VERSION_V1BETA1 } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { sidecarSetToV1alpha1, sidecarSetToV1beta1 } from '../../shared/domain/conversion/sidecarset.js';
import type { Violation } from '../../shared/errors.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { SidecarSetDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject, requestVersion } from './common.js';

export interface ValidateSidecarSetDeps<Ctx> {
  validate: (obj: SidecarSet, old: SidecarSet | undefined, ctx: Ctx) => Violation[];
  /** The context, its SidecarSets seen through `view` (the v1beta1 view of each, as upstream lists them). */
  context: (req: AdmissionRequest, view: (s: SidecarSet) => SidecarSet) => Ctx;
}

/** A SidecarSet as v1.9 validates it: converted to v1beta1 and shown in the v1alpha1 shape the validator reads. */
export function v1beta1View(s: SidecarSet): SidecarSet {
  return s.apiVersion === KRUISE_API_VERSION_V1BETA1 ? sidecarSetToV1alpha1(s) : sidecarSetToV1alpha1(sidecarSetToV1beta1(s));
}

export function validateSidecarSetRoute<Ctx>(deps: ValidateSidecarSetDeps<Ctx>): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-sidecarset',
    name: 'validate-sidecarset',
    handler: (req) => {
      if (!isCreateOrUpdate(req)) return allowed();
      const version = requestVersion(req);
      if (version !== 'v1alpha1' && version !== 'v1beta1') return fromViolations(deps.validate({}, undefined, deps.context(req, v1beta1View)), 403);
      decodeRequestObjects(req, SidecarSetDecoder);
      const old = requestOldObject<SidecarSet>(req);
      return fromViolations(deps.validate(v1beta1View(requestObject(req)), old && v1beta1View(old), deps.context(req, v1beta1View)), 403);
    },
  };
}
