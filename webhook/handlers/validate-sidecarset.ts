// /validate-apps-kruise-io-v1alpha1-sidecarset (spec §3). Denials use 403 where upstream uses 500
// (docs/compatibility.md): a 500 tells clients "retry", while these are permanent field errors.
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import type { Violation } from '../../shared/errors.js';
import type { AdmissionRequest } from '../admission/review.js';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { SidecarSetDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, fromViolations, isCreateOrUpdate, requestObject, requestOldObject } from './common.js';

export interface ValidateSidecarSetDeps<Ctx> {
  validate: (obj: SidecarSet, old: SidecarSet | undefined, ctx: Ctx) => Violation[];
  context: (req: AdmissionRequest) => Ctx;
}

export function validateSidecarSetRoute<Ctx>(deps: ValidateSidecarSetDeps<Ctx>): WebhookRoute {
  return {
    path: '/validate-apps-kruise-io-v1alpha1-sidecarset',
    name: 'validate-sidecarset',
    handler: (req) => {
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, SidecarSetDecoder);
      return fromViolations(deps.validate(requestObject(req), requestOldObject(req), deps.context(req)), 403);
    },
  };
}
