// apps.kruise.io/v1alpha1 CloneSet (spec/cloneset.md §1-2). Namespaced; scale and status subresources.
import type { V1PersistentVolumeClaim, V1PodTemplateSpec } from '@kubernetes/client-node';
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject, LabelSelector } from './meta.js';
import { Bool, Core, Int32, Int64, IntOrStr, KindSchema, META_V1, Obj, Str, StrList, StrMap, Time } from './schema.js';
import { ScatterStrategySchema, UpdatePriorityStrategySchema } from './sidecarset.js';

export type CloneSetUpdateStrategyType = 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly' | 'OnDelete';

export const CloneSetScaleStrategySchema = Obj('ScaleStrategy indicates the ScaleStrategy that will be employed to create and delete Pods in the CloneSet.', {
  podsToDelete: Type.Optional(StrList('PodsToDelete is the names of Pods that should be deleted. Note that this list will be truncated for non-existing pod names.')),
  maxUnavailable: Type.Optional(IntOrStr('The maximum number of pods that can be unavailable for scaled pods. It only limits the scale-up: new pods are created while the unavailable ones number fewer than this. Absolute number or percentage of desired pods; defaults to nil (no limit).')),
  disablePVCReuse: Type.Optional(Bool('Indicates if the PVCs of a deleted pod are deleted rather than reused by the pod created in its place.')),
});
export type CloneSetScaleStrategy = Static<typeof CloneSetScaleStrategySchema>;

export const InPlaceUpdateStrategySchema = Obj('InPlaceUpdateStrategy defines the strategies for in-place update.', {
  gracePeriodSeconds: Type.Optional(Int32('GracePeriodSeconds is the time between setting the Pod not-ready and updating its images in place.')),
});
export type InPlaceUpdateStrategy = Static<typeof InPlaceUpdateStrategySchema>;

export const CloneSetUpdateStrategySchema = Obj('UpdateStrategy indicates the UpdateStrategy that will be employed to update Pods in the CloneSet when a revision is made to Template.', {
  type: Type.Optional(Str('Type indicates the type of the CloneSetUpdateStrategy: ReCreate, InPlaceIfPossible (the default) or InPlaceOnly.')),
  partition: Type.Optional(IntOrStr('Partition is the desired number or percent of Pods in old revisions: (replicas - partition) Pods are updated. Defaults to 0.')),
  maxUnavailable: Type.Optional(IntOrStr('The maximum number of pods that can be unavailable during update or scale: an absolute number or a percentage of desired pods, rounded up. Defaults to 20%.')),
  maxSurge: Type.Optional(IntOrStr('The maximum number of pods that can be scheduled above the desired replicas during update or specified delete: an absolute number or a percentage of desired pods, rounded up. Defaults to 0.')),
  paused: Type.Optional(Bool('Paused indicates that the CloneSet is paused: no pod is updated. Scaling is not affected.')),
  priorityStrategy: Type.Optional(UpdatePriorityStrategySchema),
  scatterStrategy: Type.Optional(ScatterStrategySchema),
  inPlaceUpdateStrategy: Type.Optional(InPlaceUpdateStrategySchema),
});
export type CloneSetUpdateStrategy = Static<typeof CloneSetUpdateStrategySchema>;

/** apis/apps/pub/lifecycle.go LifecycleHook. */
export const LifecycleHookSchema = (when: string) => Obj(`The hook run ${when}: the pod waits in its Preparing state until these labels and finalizers are gone (or their handler removes them).`, {
  labelsHandler: Type.Optional(StrMap('Labels that hold the pod in this state while present.')),
  finalizersHandler: Type.Optional(StrList('Finalizers that hold the pod in this state while present.')),
  markPodNotReady: Type.Optional(Bool('MarkPodNotReady sets the pod\'s KruisePodReady condition False while the hook runs, so traffic leaves it first.')),
});
export type LifecycleHook = Static<ReturnType<typeof LifecycleHookSchema>>;

export const LifecycleSchema = Obj('Lifecycle defines the lifecycle hooks for Pods pre-available (pre-normal), pre-delete and in-place update.', {
  preDelete: Type.Optional(LifecycleHookSchema('before the pod is deleted')),
  inPlaceUpdate: Type.Optional(LifecycleHookSchema('before the pod is updated in place')),
  preNormal: Type.Optional(LifecycleHookSchema('before the pod becomes Normal (available)')),
});
export type Lifecycle = Static<typeof LifecycleSchema>;

export const CloneSetSpecSchema = Obj('CloneSetSpec defines the desired state of CloneSet.', {
  replicas: Type.Optional(Int32('Replicas is the desired number of replicas of the given Template. If unspecified, defaults to 1.')),
  selector: Core<LabelSelector>(`${META_V1}LabelSelector`, 'Selector is a label query over pods that should match the replica count. It must match the pod template\'s labels.'),
  template: Type.Unsafe<V1PodTemplateSpec>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true,
    description: 'Template describes the pods that will be created (a core/v1 PodTemplateSpec, schemaless here as upstream keeps it).' }),
  volumeClaimTemplates: Type.Optional(Type.Array(Type.Unsafe<V1PersistentVolumeClaim>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true,
    description: 'A core/v1 PersistentVolumeClaim template.' }), { description: 'VolumeClaimTemplates is a list of claims that pods are allowed to reference. Each claim is created for each pod, named after the template and the pod.' })),
  scaleStrategy: Type.Optional(CloneSetScaleStrategySchema),
  updateStrategy: Type.Optional(CloneSetUpdateStrategySchema),
  revisionHistoryLimit: Type.Optional(Int32('RevisionHistoryLimit is the maximum number of revisions that will be maintained in the CloneSet\'s revision history. Defaults to 10.')),
  minReadySeconds: Type.Optional(Int32('Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.')),
  lifecycle: Type.Optional(LifecycleSchema),
  progressDeadlineSeconds: Type.Optional(Int32('ProgressDeadlineSeconds specifies the maximum time for the CloneSet to reach available or paused state due to partitioning. The controller will set a ProgressDeadlineExceeded condition when timeout occurs, while excluding paused state duration from the deadline calculation. This field is optional. If not set, the controller will not track progress deadlines or add the condition.')),
});
export type CloneSetSpec = Static<typeof CloneSetSpecSchema>;

export const CloneSetConditionSchema = Obj('CloneSetCondition describes the state of a CloneSet at a certain point.', {
  type: Str('Type of CloneSet condition: FailedScale, FailedUpdate, Progressing.'),
  status: Str('Status of the condition, one of True, False, Unknown.'),
  lastUpdateTime: Type.Optional(Time('Last time the condition is updated.')),
  lastTransitionTime: Type.Optional(Time('Last time the condition transitioned from one status to another.')),
  reason: Type.Optional(Str('The reason for the condition\'s last transition.')),
  message: Type.Optional(Str('A human readable message indicating details about the transition.')),
});
export type CloneSetCondition = Static<typeof CloneSetConditionSchema>;

export const CloneSetStatusSchema = Obj('CloneSetStatus defines the observed state of CloneSet.', {
  observedGeneration: Type.Optional(Int64('ObservedGeneration is the most recent generation observed for this CloneSet. It corresponds to the CloneSet\'s generation, which is updated on mutation by the API Server.')),
  replicas: Int32('Replicas is the number of Pods created by the CloneSet controller.'),
  readyReplicas: Int32('ReadyReplicas is the number of Pods created by the CloneSet controller that have a Ready Condition.'),
  availableReplicas: Int32('AvailableReplicas is the number of Pods created by the CloneSet controller that have a Ready Condition for at least minReadySeconds.'),
  updatedReplicas: Int32('UpdatedReplicas is the number of Pods created by the CloneSet controller from the CloneSet version indicated by updateRevision.'),
  updatedReadyReplicas: Int32('UpdatedReadyReplicas is the number of Pods created by the CloneSet controller from the CloneSet version indicated by updateRevision and have a Ready Condition.'),
  updatedAvailableReplicas: Type.Optional(Int32('UpdatedAvailableReplicas is the number of Pods created by the CloneSet controller from the CloneSet version indicated by updateRevision and have a Ready Condition for at least minReadySeconds.')),
  expectedUpdatedReplicas: Type.Optional(Int32('ExpectedUpdatedReplicas is the number of Pods that should be updated by CloneSet controller. This field is calculated via Replicas - Partition.')),
  updateRevision: Type.Optional(Str('UpdateRevision, if not empty, indicates the latest revision of the CloneSet.')),
  currentRevision: Type.Optional(Str('currentRevision, if not empty, indicates the current revision version of the CloneSet.')),
  collisionCount: Type.Optional(Int32('CollisionCount is the count of hash collisions for the CloneSet. The CloneSet controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ControllerRevision.')),
  labelSelector: Type.Optional(Str('LabelSelector is label selectors for query over pods that should match the replica count used by HPA.')),
  conditions: Type.Optional(Type.Array(CloneSetConditionSchema, { description: 'Conditions represents the latest available observations of a CloneSet\'s current state.' })),
});
export type CloneSetStatus = Static<typeof CloneSetStatusSchema>;

export const CloneSetSchema = KindSchema('CloneSet is the Schema for the clonesets API: it manages a set of identical pods, updated in place where it can.',
  CloneSetSpecSchema, CloneSetStatusSchema);
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
