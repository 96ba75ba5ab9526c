// apps.kruise.io/v1alpha1 SidecarSet (spec/webhooks.md §1). Field names are the wire names.
import type {
  Container,
  IntOrString,
  KruiseObject,
  LabelSelector,
  LocalObjectReference,
  ObjectFieldSelector,
  Volume,
} from './meta.js';

export type PodInjectPolicy = 'BeforeAppContainer' | 'AfterAppContainer';
export type UpgradeType = 'ColdUpgrade' | 'HotUpgrade';
export type ShareVolumePolicyType = 'enabled' | 'disabled';
export type PatchPolicy = 'Retain' | 'Overwrite' | 'MergePatchJson';
export type RevisionPolicy = 'Always' | 'Partial';

export interface SidecarContainerUpgradeStrategy {
  upgradeType?: UpgradeType | string;
  hotUpgradeEmptyImage?: string;
}

export interface TransferEnvVar {
  sourceContainerName?: string;
  sourceContainerNameFrom?: { fieldRef?: ObjectFieldSelector };
  envName?: string;
  envNames?: string[];
}

/** A corev1.Container plus kruise's extension fields. */
export interface SidecarContainer extends Container {
  podInjectPolicy?: PodInjectPolicy | string;
  upgradeStrategy?: SidecarContainerUpgradeStrategy;
  shareVolumePolicy?: { type?: ShareVolumePolicyType | string };
  /** v1.9+/HEAD: share the app containers' volumeDevices; nil means disabled. Not part of the v1.8 hash layout. */
  shareVolumeDevicePolicy?: { type?: ShareVolumePolicyType | string };
  transferEnv?: TransferEnvVar[];
}

export interface UpdatePriorityStrategy {
  orderPriority?: { orderedKey: string }[];
  weightPriority?: { weight: number; matchSelector: LabelSelector }[];
}

export interface SidecarSetUpdateStrategy {
  type?: 'NotUpdate' | 'RollingUpdate' | string;
  paused?: boolean;
  selector?: LabelSelector;
  partition?: IntOrString;
  maxUnavailable?: IntOrString;
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: { key: string; value: string }[];
}

export interface SidecarSetInjectRevision {
  customVersion?: string;
  revisionName?: string;
  policy?: RevisionPolicy | string;
}

export interface SidecarSetInjectionStrategy {
  paused?: boolean;
  revision?: SidecarSetInjectRevision;
}

export interface SidecarSetPatchPodMetadata {
  annotations?: Record<string, string>;
  patchPolicy?: PatchPolicy | string;
}

export interface SidecarSetSpec {
  selector?: LabelSelector;
  namespace?: string;
  namespaceSelector?: LabelSelector;
  initContainers?: SidecarContainer[];
  containers?: SidecarContainer[];
  volumes?: Volume[];
  updateStrategy?: SidecarSetUpdateStrategy;
  injectionStrategy?: SidecarSetInjectionStrategy;
  imagePullSecrets?: LocalObjectReference[];
  revisionHistoryLimit?: number;
  patchPodMetadata?: SidecarSetPatchPodMetadata[];
}

/** kruise-ts extension (docs/compatibility.md): what the controller cannot do in place, for `kubectl describe`. */
export interface SidecarSetCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

export interface SidecarSetStatus {
  observedGeneration?: number;
  matchedPods: number;
  updatedPods: number;
  readyPods: number;
  updatedReadyPods?: number;
  latestRevision?: string;
  collisionCount?: number;
  /** kruise-ts extension; absent in OpenKruise. */
  conditions?: SidecarSetCondition[];
}

export type SidecarSet = KruiseObject<SidecarSetSpec, SidecarSetStatus>;

/** Annotation keys and env names that must match OpenKruise byte for byte (spec/webhooks.md §1.6). */
export const SidecarSetHashAnnotation = 'kruise.io/sidecarset-hash';
export const SidecarSetHashWithoutImageAnnotation = 'kruise.io/sidecarset-hash-without-image';
export const SidecarSetListAnnotation = 'kruise.io/sidecarset-injected-list';
export const SidecarSetWorkingHotUpgradeContainer = 'kruise.io/sidecarset-working-hotupgrade-container';
export const SidecarSetVersionAnnotationPrefix = 'version.sidecarset.kruise.io/';
export const SidecarSetVersionAltAnnotationPrefix = 'versionalt.sidecarset.kruise.io/';
export const SidecarSetInPlaceUpdateStateAnnotation = 'kruise.io/sidecarset-inplace-update-state';
export const SidecarSetCustomVersionLabel = 'apps.kruise.io/sidecarset-custom-version';
/** HEAD only: marks a canary SidecarSet; with SidecarSetBaseAnnotation it replaces its base on shared pods. */
export const SidecarSetCanaryAnnotation = 'apps.kruise.io/sidecarset-canary';
export const SidecarSetBaseAnnotation = 'apps.kruise.io/sidecarset-base';
export const SidecarSetNameLabel = 'kruise.io/sidecarset-name';
export const SidecarEnvIsInjected = 'IS_INJECTED';
export const SidecarEnvVersion = 'SIDECARSET_VERSION';
export const SidecarEnvVersionAlt = 'SIDECARSET_VERSION_ALT';
export const HotUpgradeSuffixes = ['-1', '-2'] as const;
