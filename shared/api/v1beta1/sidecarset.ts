// apps.kruise.io/v1beta1 SidecarSet, the storage version of OpenKruise v1.9 (spec/openkruise-v1.9.md §2.1). Field names
// are the wire names. Against v1alpha1: no `spec.namespace` (a namespaceSelector on kubernetes.io/metadata.name says
// it), and `spec.customVersion` replaces the label apps.kruise.io/sidecarset-custom-version on the SidecarSet. The rest
// (containers, strategies, status) is the same Go type in both versions, so it is shared with ../sidecarset.ts.
import type { KruiseObject, LabelSelector, LocalObjectReference, Volume } from '../meta.js';
export { KRUISE_API_VERSION_V1BETA1 } from '../meta.js';
import type {
  SidecarContainer,
  SidecarSetInjectionStrategy,
  SidecarSetPatchPodMetadata,
  SidecarSetStatus,
  SidecarSetUpdateStrategy,
} from '../sidecarset.js';

export interface SidecarSetSpec {
  selector?: LabelSelector;
  /** nil means every namespace; v1alpha1's `namespace: x` arrives here as matchLabels kubernetes.io/metadata.name=x. */
  namespaceSelector?: LabelSelector;
  /** The custom version of this SidecarSet, copied onto new ControllerRevisions' label (omitempty). */
  customVersion?: string;
  initContainers?: SidecarContainer[];
  containers?: SidecarContainer[];
  volumes?: Volume[];
  updateStrategy?: SidecarSetUpdateStrategy;
  injectionStrategy?: SidecarSetInjectionStrategy;
  imagePullSecrets?: LocalObjectReference[];
  revisionHistoryLimit?: number;
  patchPodMetadata?: SidecarSetPatchPodMetadata[];
}

export type SidecarSet = KruiseObject<SidecarSetSpec, SidecarSetStatus>;

/** The label v1beta1 reads to build a namespace selector out of v1alpha1's `spec.namespace` (set by the apiserver). */
export const NamespaceNameLabel = 'kubernetes.io/metadata.name';
