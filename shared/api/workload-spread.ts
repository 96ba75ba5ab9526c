// apps.kruise.io/v1alpha1 WorkloadSpread (spec/availability-guards.md §10). Namespaced, short name `ws`.
import { Type, type Static } from '@sinclair/typebox';
import type { V1NodeSelectorTerm, V1PreferredSchedulingTerm, V1Toleration } from '@kubernetes/client-node';
import type { KruiseObject, LabelSelector } from './meta.js';
import { CORE_V1, Core, Int32, Int64, IntOrStr, KindSchema, MapOf, META_V1, Obj, Str, StrList, Time } from './schema.js';

export const TargetReferenceSchema = Obj('TargetReference contains enough information to let you identify an workload', {
  apiVersion: Str('APIVersion is the group/version for the resource being referenced. If APIVersion is not specified, the specified Kind must be in the core API group. For any other third-party types, APIVersion is required.'),
  kind: Str('Kind is the type of resource being referenced.'),
  name: Str('Name is the name of resource being referenced.'),
});
export type TargetReference = Static<typeof TargetReferenceSchema>;

export const WorkloadSpreadSubsetSchema = Obj('WorkloadSpreadSubset defines the details of a subset.', {
  name: Str('Name should be unique between all of the subsets under one WorkloadSpread.'),
  requiredNodeSelectorTerm: Type.Optional(Core<V1NodeSelectorTerm>(`${CORE_V1}NodeSelectorTerm`, 'Indicates the node required selector to form the subset.')),
  preferredNodeSelectorTerms: Type.Optional(Type.Array(Core<V1PreferredSchedulingTerm>(`${CORE_V1}PreferredSchedulingTerm`, 'An empty preferred scheduling term matches all objects with implicit weight 0 (i.e. it\'s a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).'),
    { description: 'Indicates the node preferred selector to form the subset.' })),
  tolerations: Type.Optional(Type.Array(Core<V1Toleration>(`${CORE_V1}Toleration`, 'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.'),
    { description: 'Indicates the tolerations the pods under this subset have. A subset\'s tolerations is not allowed to be updated.' })),
  maxReplicas: Type.Optional(IntOrStr('MaxReplicas indicates the desired max replicas of this subset.')),
  patch: Type.Optional(Type.Unsafe<Record<string, unknown>>({ 'x-kubernetes-preserve-unknown-fields': true,
    description: 'Patch indicates patching podTemplate to the Pod.' })),
});
export type WorkloadSpreadSubset = Static<typeof WorkloadSpreadSubsetSchema>;

export const WorkloadSpreadSpecSchema = Obj('WorkloadSpreadSpec defines the desired state of WorkloadSpread.', {
  targetRef: Type.Unsafe<TargetReference>({ ...TargetReferenceSchema, description: 'TargetReference is the target workload that WorkloadSpread want to control.' }),
  targetFilter: Type.Optional(Obj('TargetFilter allows WorkloadSpread to manage only a portion of the Pods in the TargetReference: by specifying the criteria for the Pods to be managed through a label selector, and by specifying how to obtain the total number of these selected Pods from the workload using replicasPathList.', {
    selector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'Selector is used to filter the Pods to be managed.')),
    replicasPathList: Type.Optional(StrList('ReplicasPathList is a list of resource paths used to specify how to determine the total number of replicas of the target workload after filtering. If this list is not empty, WorkloadSpread will look for the corresponding values in the target resource according to each path, and treat the sum of these values as the total number of replicas after filtering.')),
  })),
  subsets: Type.Array(WorkloadSpreadSubsetSchema, { description: 'Subsets describes the pods distribution details between each of subsets.' }),
  scheduleStrategy: Type.Optional(Obj('ScheduleStrategy indicates the strategy the WorkloadSpread used to preform the schedule between each of subsets.', {
    type: Type.Optional(Type.Unsafe<'' | 'Fixed' | 'Adaptive'>({ type: 'string', enum: ['Adaptive', 'Fixed', ''],
      description: 'Type indicates the type of the WorkloadSpreadScheduleStrategy. Default is Fixed' })),
    adaptive: Type.Optional(Obj('Adaptive is used to communicate parameters when Type is AdaptiveWorkloadSpreadScheduleStrategyType.', {
      disableSimulationSchedule: Type.Optional(Type.Boolean({ description: 'DisableSimulationSchedule indicates whether to disable the feature of simulation schedule. Default is false. Webhook can take a simple general predicates to check whether Pod can be scheduled into this subset, but it just considers the Node resource and cannot replace scheduler to do richer predicates practically.' })),
      rescheduleCriticalSeconds: Type.Optional(Int32('RescheduleCriticalSeconds indicates how long controller will reschedule a schedule failed Pod to the subset that has redundant capacity after the subset where the Pod lives. If a Pod was scheduled failed and still in an unschedulabe status over RescheduleCriticalSeconds duration, the controller will reschedule it to a suitable subset. Default is 30 seconds.')),
    })),
  })),
});
export type WorkloadSpreadSpec = Static<typeof WorkloadSpreadSpecSchema>;

export const WorkloadSpreadSubsetConditionSchema = Obj('WorkloadSpreadSubsetCondition describes the state of a subset at a certain point.', {
  type: Str('Type of in place set condition.'),
  status: Str('Status of the condition, one of True, False, Unknown.'),
  lastTransitionTime: Type.Optional(Time('Last time the condition transitioned from one status to another.')),
  reason: Type.Optional(Str('The reason for the condition\'s last transition.')),
  message: Type.Optional(Str('A human readable message indicating details about the transition.')),
});
export type WorkloadSpreadSubsetCondition = Static<typeof WorkloadSpreadSubsetConditionSchema>;

export const WorkloadSpreadSubsetStatusSchema = Obj('WorkloadSpreadSubsetStatus defines the observed state of subset', {
  name: Str('Name should be unique between all of the subsets under one WorkloadSpread.'),
  replicas: Int32('Replicas is the most recently observed number of active replicas for subset.'),
  conditions: Type.Optional(Type.Array(WorkloadSpreadSubsetConditionSchema, { description: 'Conditions is an array of current observed subset conditions.' })),
  missingReplicas: Int32('MissingReplicas is the number of active replicas belong to this subset not be found. MissingReplicas > 0 indicates the subset is still missing MissingReplicas pods to create MissingReplicas = 0 indicates the subset already has enough pods, there is no need to create MissingReplicas = -1 indicates the subset\'s MaxReplicas not set, then there is no limit for pods number'),
  creatingPods: Type.Optional(MapOf(Time(''), 'CreatingPods contains information about pods whose creation was processed by the webhook handler but not yet been observed by the WorkloadSpread controller. A pod will be in this map from the time when the webhook handler processed the creation request to the time when the pod is seen by controller. The key in the map is the name of the pod and the value is the time when the webhook handler process the creation request. If the real creation didn\'t happen and a pod is still in this map, it will be removed from the list automatically by WorkloadSpread controller after some time. If everything goes smooth this map should be empty for the most of the time. Large number of entries in the map may indicate problems with pod creations.')),
  deletingPods: Type.Optional(MapOf(Time(''), 'DeletingPods is similar with CreatingPods and it contains information about pod deletion.')),
});
export type WorkloadSpreadSubsetStatus = Static<typeof WorkloadSpreadSubsetStatusSchema>;

export const WorkloadSpreadStatusSchema = Obj('WorkloadSpreadStatus defines the observed state of WorkloadSpread.', {
  observedGeneration: Type.Optional(Int64('ObservedGeneration is the most recent generation observed for this WorkloadSpread. It corresponds to the WorkloadSpread\'s generation, which is updated on mutation by the API Server.')),
  subsetStatuses: Type.Optional(Type.Array(WorkloadSpreadSubsetStatusSchema, { description: 'Contains the status of each subset. Each element in this array represents one subset' })),
  versionedSubsetStatuses: Type.Optional(MapOf(Type.Array(WorkloadSpreadSubsetStatusSchema), 'VersionedSubsetStatuses is to solve rolling-update problems, where the creation of new-version pod may be earlier than deletion of old-version pod. We have to calculate the pod subset distribution for each version.')),
});
export type WorkloadSpreadStatus = Static<typeof WorkloadSpreadStatusSchema>;

export const WorkloadSpreadSchema = KindSchema('WorkloadSpread is the Schema for the WorkloadSpread API',
  WorkloadSpreadSpecSchema, WorkloadSpreadStatusSchema);
export type WorkloadSpread = KruiseObject<WorkloadSpreadSpec, WorkloadSpreadStatus>;

/** Pod annotation: `{"name":"<ws>","subset":"<subset>"}` (+ `"uid"` for a pod created by generateName). */
export const MatchedWorkloadSpreadAnnotation = 'apps.kruise.io/matched-workloadspread';
export const PodDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';
export const IgnorePatchExistingPodsAnnotation = 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata';
export const FakeSubsetName = 'kruise.io/workloadspread-fake-subset-name';
export const VersionIgnored = 'versionIgnored';
export const SubsetSchedulable = 'Schedulable';
