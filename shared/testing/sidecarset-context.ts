// The validation context of a SidecarSet judged on its own: no other SidecarSets, namespaces, revisions or patch
// whitelist, SidecarSetPatchPodMetadataDefaultsAllowed off. For table tests of the validator's own rules.
import type { SidecarSetValidationContext } from '../domain/validation/sidecarset.js';

export const aloneContext: SidecarSetValidationContext = Object.freeze({
  sidecarSets: [],
  namespaceLabels: () => undefined,
  revisionExists: () => false,
  patchMetadataWhitelist: undefined,
  patchMetadataDefaultsAllowed: false,
});
