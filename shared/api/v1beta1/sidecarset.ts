// apps.kruise.io/v1beta1 SidecarSet, the storage version of OpenKruise v1.9 (spec/openkruise-v1.9.md §2.1). Field names
// are the wire names. Against v1alpha1: no `spec.namespace` (a namespaceSelector on kubernetes.io/metadata.name says
// it), and `spec.customVersion` replaces the label apps.kruise.io/sidecarset-custom-version on the SidecarSet. The rest
// (containers, strategies, status) is the same Go type in both versions, so it is shared with ../sidecarset.ts.
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject, LabelSelector } from '../meta.js';
import { Core, KindSchema, META_V1, Obj, Str } from '../schema.js';
import {
  SidecarSetStatusSchema,
  sidecarSetInjectionStrategySchema,
  sidecarSetInjectRevisionSchema,
  sidecarSetSpecFields,
  type SidecarSetStatus,
} from '../sidecarset.js';
export { KRUISE_API_VERSION_V1BETA1 } from '../meta.js';

const InjectionStrategySchema = sidecarSetInjectionStrategySchema(sidecarSetInjectRevisionSchema(
  'CustomVersion matches the customVersion field of a (historical) SidecarSet: its ControllerRevision, labelled apps.kruise.io/sidecarset-custom-version with that value, is used to restore that SidecarSet and inject its version of the sidecars.'));

export const SidecarSetSpecSchema = Obj('SidecarSetSpec defines the desired state of SidecarSet.', {
  ...sidecarSetSpecFields,
  namespaceSelector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'NamespaceSelector selects the namespaces whose pods get the sidecar containers; nil selects every namespace. One namespace is matchLabels kubernetes.io/metadata.name: <namespace> (what v1alpha1\'s spec.namespace converts to).')),
  injectionStrategy: Type.Optional(InjectionStrategySchema),
  customVersion: Type.Optional(Str('CustomVersion is the custom version of this SidecarSet, for users to tell its revisions apart: the controller writes it as the label apps.kruise.io/sidecarset-custom-version on the ControllerRevisions it creates, which injectionStrategy.revision.customVersion selects. Read as v1alpha1, it is that label on the SidecarSet.')),
});
export type SidecarSetSpec = Static<typeof SidecarSetSpecSchema>;

export const SidecarSetSchema = KindSchema('SidecarSet is the Schema for the sidecarsets API: it injects sidecar containers into the pods it selects and updates them in place.',
  SidecarSetSpecSchema, SidecarSetStatusSchema);
export type SidecarSet = KruiseObject<SidecarSetSpec, SidecarSetStatus>;

/** The label v1beta1 reads to build a namespace selector out of v1alpha1's `spec.namespace` (set by the apiserver). */
export const NamespaceNameLabel = 'kubernetes.io/metadata.name';
