// apps.kruise.io/v1alpha1 CloneSet (spec/cloneset.md §1-2). Namespaced; scale and status subresources.
import type { V1PersistentVolumeClaim, V1PodTemplateSpec } from '@kubernetes/client-node';
import type { IntOrString, KruiseObject, LabelSelector } from './meta.js';
import type { UpdatePriorityStrategy } from './sidecarset.js';

export type CloneSetUpdateStrategyType = 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly' | 'OnDelete';

export interface CloneSetScaleStrategy {
  podsToDelete?: string[];
  maxUnavailable?: IntOrString;
  disablePVCReuse?: boolean;
}

export interface InPlaceUpdateStrategy {
  gracePeriodSeconds?: number;
}

export interface CloneSetUpdateStrategy {
  type?: CloneSetUpdateStrategyType | string;
  partition?: IntOrString;
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
  paused?: boolean;
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: { key: string; value: string }[];
  inPlaceUpdateStrategy?: InPlaceUpdateStrategy;
}

/** apis/apps/pub/lifecycle.go LifecycleHook. */
export interface LifecycleHook {
  labelsHandler?: Record<string, string>;
  finalizersHandler?: string[];
  markPodNotReady?: boolean;
}

export interface Lifecycle {
  preDelete?: LifecycleHook;
  inPlaceUpdate?: LifecycleHook;
  preNormal?: LifecycleHook;
}

export interface CloneSetSpec {
  replicas?: number;
  selector: LabelSelector;
  template: V1PodTemplateSpec;
  volumeClaimTemplates?: V1PersistentVolumeClaim[];
  scaleStrategy?: CloneSetScaleStrategy;
  updateStrategy?: CloneSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  lifecycle?: Lifecycle;
}

export interface CloneSetCondition {
  type: 'FailedScale' | 'FailedUpdate' | 'Progressing' | string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CloneSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  updatedAvailableReplicas?: number;
  expectedUpdatedReplicas?: number;
  updateRevision?: string;
  currentRevision?: string;
  collisionCount?: number;
  labelSelector?: string;
  conditions?: CloneSetCondition[];
}

export type CloneSet = KruiseObject<CloneSetSpec, CloneSetStatus>;

export const CloneSetKind = 'CloneSet';

// Pod and PVC labels (spec §2.1).
export const CloneSetInstanceIdLabel = 'apps.kruise.io/cloneset-instance-id';
export const PodRevisionLabel = 'controller-revision-hash';
export const PodTemplateHashLabel = 'pod-template-hash';
export const SpecifiedDeleteLabel = 'apps.kruise.io/specified-delete';
export const LifecycleStateLabel = 'lifecycle.apps.kruise.io/state';
export const LifecycleTimestampAnnotation = 'lifecycle.apps.kruise.io/timestamp';
export const PodDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';
/** ControllerRevision annotation: '' without volumeClaimTemplates. */
export const VolumeClaimTemplateHashAnnotation = 'kruise.io/cloneset-volumeclaimtemplate-hash';

export type LifecycleState = 'PreparingNormal' | 'Normal' | 'PreparingUpdate' | 'Updating' | 'Updated' | 'PreparingDelete';

// In-place update (spec §2.6).
export const InPlaceUpdateReadyConditionType = 'InPlaceUpdateReady';
export const InPlaceUpdateStateAnnotation = 'apps.kruise.io/inplace-update-state';
export const InPlaceUpdateStateAnnotationOld = 'inplace-update-state';
export const InPlaceUpdateGraceAnnotation = 'apps.kruise.io/inplace-update-grace';
export const InPlaceUpdateGraceAnnotationOld = 'inplace-update-grace';
export const RuntimeContainersMetaAnnotation = 'apps.kruise.io/runtime-containers-meta';

export interface InPlaceUpdateState {
  revision: string;
  updateTimestamp: string;
  lastContainerStatuses: Record<string, { imageID?: string }> | null;
  updateEnvFromMetadata?: boolean;
  updateResources?: boolean;
  updateImages?: boolean;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: Record<string, unknown>;
  nextContainerResources?: Record<string, unknown>;
  preCheckBeforeNext?: { containersRequiredReady?: string[] };
  containerBatchesRecord?: { timestamp: string; containers: string[] }[];
}

/** The pending UpdateSpec written while inPlaceUpdateStrategy.gracePeriodSeconds runs. */
export interface InPlaceUpdateGrace {
  revision: string;
  containerImages?: Record<string, string>;
  containerRefMetadata?: Record<string, unknown>;
  containerResources?: Record<string, unknown>;
  /** base64 of the strategic-merge patch bytes. */
  metaDataPatch?: string;
  updateEnvFromMetadata?: boolean;
  graceSeconds?: number;
}
