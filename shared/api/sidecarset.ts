// apps.kruise.io/v1alpha1 SidecarSet (spec/webhooks.md §1). Field names are the wire names.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Container, KruiseObject, LabelSelector, LocalObjectReference, ObjectFieldSelector, Volume } from './meta.js';
import { Bool, CORE_OPEN, CORE_REF, CORE_SCHEMALESS, CORE_V1, Core, CoreWith, CrdRequired, Int32, Int64, IntOrStr, KindSchema, META_V1, Obj, Str, StrList, StrMap } from './schema.js';

export type PodInjectPolicy = 'BeforeAppContainer' | 'AfterAppContainer';
export type UpgradeType = 'ColdUpgrade' | 'HotUpgrade';
export type ShareVolumePolicyType = 'enabled' | 'disabled';
export type PatchPolicy = 'Retain' | 'Overwrite' | 'MergePatchJson';
export type RevisionPolicy = 'Always' | 'Partial';

export const SidecarContainerUpgradeStrategySchema = Obj('The upgrade strategy of the sidecar container: ColdUpgrade or HotUpgrade.', {
  upgradeType: Type.Optional(Str('ColdUpgrade (the default) for a stateless sidecar container; HotUpgrade starts the new version next to the old one and hands over, as suits a proxy such as Istio\'s Envoy.')),
  hotUpgradeEmptyImage: Type.Optional(Str('With HotUpgrade, the image of the empty container that stands in for the idle one of the two; it is the sidecar container in command, args, liveness probe etc. but does no actual work.')),
});
export type SidecarContainerUpgradeStrategy = Static<typeof SidecarContainerUpgradeStrategySchema>;

export const TransferEnvVarSchema = Obj('TransferEnvVar copies environment variables of another container of the pod into the sidecar container.', {
  sourceContainerName: Type.Optional(Str('The name of the pod container (pod.spec.containers[x].name) to copy the variables from.')),
  sourceContainerNameFrom: Type.Optional(Obj('Takes the source container name from a field of the pod instead of sourceContainerName.', {
    fieldRef: Type.Optional(Core<ObjectFieldSelector>(`${CORE_V1}ObjectFieldSelector`, "Selects a field of the pod: supports metadata.name, `metadata.labels['<KEY>']`, `metadata.annotations['<KEY>']`.")),
  })),
  envName: Type.Optional(Str('The name of one variable (pod.spec.containers[x].env[y].name) to copy.')),
  envNames: Type.Optional(StrList('The names of several variables to copy.')),
});
export type TransferEnvVar = Static<typeof TransferEnvVarSchema>;

const shareVolumePolicyType = Str('enabled or disabled.');

/** v1.9 `resourcesPolicy` (spec/openkruise-v1.9.md §3): the sidecar's resources computed from the app containers'. */
export type TargetContainersMode = 'sum' | 'max';

const ResourceExpressionsSchema = (what: string) => Obj(`Expressions for the sidecar container's resource ${what}, per resource.`, {
  cpu: Type.Optional(Str(`The expression of the sidecar's CPU ${what}, over the variable cpu (the target containers' aggregated CPU ${what}), e.g. "cpu*50%" or "max(cpu*50%, 50m)".`)),
  memory: Type.Optional(Str(`The expression of the sidecar's memory ${what}, over the variable memory (the target containers' aggregated memory ${what}), e.g. "memory*50%".`)),
});
export type ResourceExpressions = Static<ReturnType<typeof ResourceExpressionsSchema>>;

export const ResourcesPolicySchema = Obj("ResourcesPolicy computes the sidecar container's resources at pod creation from the resources of the pod's other containers.", {
  targetContainersMode: CrdRequired(Str({ description: 'How the target containers\' resources are aggregated: sum adds them, max takes the largest.', enum: ['sum', 'max'] })),
  targetContainersNameRegex: Type.Optional(Str({ description: 'A Go (RE2) regular expression, unanchored, selecting the target containers by name among the pod\'s containers (sidecars excluded).', default: '.*' })),
  resourcesExpr: CrdRequired(Obj("The expressions for the sidecar container's limits and requests.", {
    limits: Type.Optional(ResourceExpressionsSchema('limits')),
    requests: Type.Optional(ResourceExpressionsSchema('requests')),
  })),
});
export type ResourcesPolicy = Static<typeof ResourcesPolicySchema>;

/** A corev1.Container plus kruise's extension fields. */
export const SidecarContainerSchema = CoreWith(Core<Container>(`${CORE_V1}Container`, 'SidecarContainer defines a sidecar container: a core/v1 Container plus the fields below.'), {
  podInjectPolicy: Type.Optional(Str('Where the sidecar container is injected into pod.spec.containers (not used for initContainers): BeforeAppContainer (the default) puts it in front of the pod\'s containers, AfterAppContainer after them.')),
  upgradeStrategy: Type.Optional(SidecarContainerUpgradeStrategySchema),
  shareVolumePolicy: Type.Optional(Obj("If ShareVolumePolicy is enabled, the sidecar container shares the other containers' VolumeMounts in the pod (not including the injected sidecar containers).", {
    type: Type.Optional(shareVolumePolicyType),
  })),
  /** v1.9+/HEAD: share the app containers' volumeDevices; nil means disabled. Not part of the v1.8 hash layout. */
  shareVolumeDevicePolicy: Type.Optional(Obj("If ShareVolumeDevicePolicy is enabled, the sidecar container shares the other containers' VolumeDevices in the pod (not including the injected sidecar containers). Unset leaves the sidecarset hash as it was before this field existed.", {
    type: Type.Optional(shareVolumePolicyType),
  })),
  resourcesPolicy: Type.Optional(ResourcesPolicySchema),
  transferEnv: Type.Optional(Type.Array(TransferEnvVarSchema, { description: 'TransferEnv copies environment variables from other containers of the pod: sourceContainerName is pod.spec.containers[x].name, envName is pod.spec.containers[x].env[y].name.' })),
}, true);
export type SidecarContainer = Static<typeof SidecarContainerSchema>;

export const UpdatePriorityStrategySchema = Obj('Priorities are the rules for calculating the priority of updating pods. Each pod to be updated passes through these terms and gets a sum of weights.', {
  orderPriority: Type.Optional(Type.Array(Obj('UpdatePriorityOrderTerm defines order priority.', {
    orderedKey: Str("Calculate priority by the value of this label key. Values are compared by the last integer in them, such as 5 in '5' or 10 in 'sts-10'."),
  }), { description: 'Order priority terms: pods are sorted by the value of orderedKey. Pods with the first key in their labels are sorted by its value; the remaining pods with the second key follow, sorted by that one, and so on.' })),
  weightPriority: Type.Optional(Type.Array(Obj('UpdatePriorityWeightTerm defines weight priority.', {
    weight: Int32('Weight associated with matching the corresponding matchSelector, in the range 1-100.'),
    matchSelector: Core<LabelSelector>(`${META_V1}LabelSelector`, "MatchSelector is used to select by pod's labels."),
  }), { description: 'Weight priority terms: pods are sorted by the sum of the weights of all terms they match.' })),
});
export type UpdatePriorityStrategy = Static<typeof UpdatePriorityStrategySchema>;

/** Shared with CloneSet's updateStrategy (apis/apps/v1alpha1 UpdateScatterStrategy). */
export const ScatterStrategySchema = Type.Array(Obj('A label key and value whose pods are spread over the update batches.', {
  key: Str('The label key.'),
  value: Str('The label value.'),
}), { description: 'ScatterStrategy spreads the pods with the same label key and value over the update batches instead of updating them in one. Pods are scattered after the priority sort; use one term, and either priority or scatter rules, to keep the order easy to follow.' });

export const SidecarSetUpdateStrategySchema = Obj('The sidecarset updateStrategy to use to replace existing pods with new ones.', {
  type: Type.Optional(Str('NotUpdate: the SidecarSet does not update the injected pods, it only injects sidecar containers into newly created pods. RollingUpdate (the default): the SidecarSet updates the injected pods to the latest version.')),
  paused: Type.Optional(Bool('Paused indicates that the SidecarSet is paused to update the injected pods. For the impact on the injection of newly created Pods, see selector.')),
  selector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'If selector is not nil, this upgrade only updates the selected pods. Since Kruise 1.8.0 it also affects the sidecar version injected into newly created Pods by a SidecarSet with an injectionStrategy.revision.')),
  partition: Type.Optional(IntOrStr('Partition is the desired number of pods in old revisions: while pods are updated, (replicas - partition) pods are updated. Default value is 0.')),
  maxUnavailable: Type.Optional(IntOrStr('The maximum number of SidecarSet pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of the total number of SidecarSet pods at the start of the update (ex: 10%), rounded up. This cannot be 0. Default value is 1.')),
  priorityStrategy: Type.Optional(UpdatePriorityStrategySchema),
  scatterStrategy: Type.Optional(ScatterStrategySchema),
});
export type SidecarSetUpdateStrategy = Static<typeof SidecarSetUpdateStrategySchema>;

/** The revision to inject; `customVersion` names what a historical SidecarSet carried (a label in v1alpha1, a field in v1beta1). */
export const sidecarSetInjectRevisionSchema = (customVersion: string) => Obj('Revision lets users roll a SidecarSet out safely: when set, the SidecarSet injects a specific revision according to the policy.', {
  customVersion: Type.Optional(Str(customVersion)),
  revisionName: Type.Optional(Str('RevisionName names a specific ControllerRevision of the SidecarSet to inject into Pods.')),
  policy: Type.Optional(Str({ description: 'Policy describes the behavior of revision injection: Always injects the revision into every new pod; Partial injects it only into the pods the update strategy has not reached.', default: 'Always', enum: ['Always', 'Partial'] })),
});
export const SidecarSetInjectRevisionSchema = sidecarSetInjectRevisionSchema("CustomVersion matches the label 'apps.kruise.io/sidecarset-custom-version' of a (historical) SidecarSet: its ControllerRevision is used to restore that SidecarSet and inject its version of the sidecars.");
export type SidecarSetInjectRevision = Static<typeof SidecarSetInjectRevisionSchema>;

export const sidecarSetInjectionStrategySchema = <R extends TSchema>(revision: R) => Obj('InjectionStrategy describes the strategy when the sidecarset is injected into pods.', {
  paused: Type.Optional(Bool('Paused suspends injection into newly created Pods; sidecar containers already injected keep being updated and running. Default is false.')),
  revision: Type.Optional(revision),
});
export const SidecarSetInjectionStrategySchema = sidecarSetInjectionStrategySchema(SidecarSetInjectRevisionSchema);
export type SidecarSetInjectionStrategy = Static<typeof SidecarSetInjectionStrategySchema>;

export const SidecarSetPatchPodMetadataSchema = Obj('Pod metadata that the SidecarSet injects and updates in place.', {
  annotations: Type.Optional(StrMap('The annotations to patch into the pod.')),
  patchPolicy: Type.Optional(Str('How the annotations are patched: Retain (the default) keeps a value the pod already has, Overwrite replaces it, MergePatchJson merges a JSON value into it.')),
});
export type SidecarSetPatchPodMetadata = Static<typeof SidecarSetPatchPodMetadataSchema>;

/** The spec fields v1alpha1 and v1beta1 share (the same Go fields and docs in both versions). */
export const sidecarSetSpecFields = {
  selector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'selector is a label query over the pods that should be injected.')),
  initContainers: Type.Optional(Type.Array(SidecarContainerSchema, { description: 'InitContainers is the list of init containers to inject into the selected pods, by name in ascending order. They are injected only when a pod is created, never into an existing pod.' })),
  containers: Type.Optional(Type.Array(SidecarContainerSchema, { description: 'Containers is the list of sidecar containers to inject into the selected pods.' })),
  volumes: Type.Optional(Type.Array(Type.Unsafe<Volume>({ [CORE_REF]: `${CORE_V1}Volume`, [CORE_OPEN]: true, [CORE_SCHEMALESS]: true, description: 'Volume represents a named volume in a pod that may be accessed by any container in the pod.' }),
    { description: 'List of volumes that can be mounted by sidecar containers.' })),
  updateStrategy: Type.Optional(SidecarSetUpdateStrategySchema),
  imagePullSecrets: Type.Optional(Type.Array(Core<LocalObjectReference>(`${CORE_V1}LocalObjectReference`, 'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.'),
    { description: 'List of the names of secrets required to pull the sidecar container images.' })),
  revisionHistoryLimit: Type.Optional(Int32('RevisionHistoryLimit is the maximum number of stored revisions of the SidecarSet. Default value is 10.')),
  patchPodMetadata: Type.Optional(Type.Array(SidecarSetPatchPodMetadataSchema, { description: 'Pod metadata the SidecarSet injects and updates in place.' })),
};

export const SidecarSetSpecSchema = Obj('SidecarSetSpec defines the desired state of SidecarSet.', {
  ...sidecarSetSpecFields,
  namespace: Type.Optional(Str('Namespace restricts the SidecarSet to the pods of this namespace; otherwise it matches pods in all namespaces.')),
  namespaceSelector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'NamespaceSelector selects the namespaces whose pods get the sidecar containers. Defaults to the empty LabelSelector, which matches everything.')),
  injectionStrategy: Type.Optional(SidecarSetInjectionStrategySchema),
});
export type SidecarSetSpec = Static<typeof SidecarSetSpecSchema>;

/**
 * kruise-ts extension (docs/compatibility.md): what the controller cannot do in place, for `kubectl describe`. Kept in
 * the annotation SidecarSetConditionsAnnotation (a JSON list), not in `status`: OpenKruise's SidecarSetStatus has no
 * conditions, and its strict decoders refuse a field they do not know.
 */
export interface SidecarSetCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}
export const SidecarSetConditionsAnnotation = 'kruise-ts.io/sidecarset-conditions';

export const SidecarSetStatusSchema = Obj('SidecarSetStatus defines the observed state of SidecarSet.', {
  observedGeneration: Type.Optional(Int64("observedGeneration is the most recent generation observed for this SidecarSet. It corresponds to the SidecarSet's generation, which is updated on mutation by the API Server.")),
  matchedPods: Int32("matchedPods is the number of Pods whose labels match this SidecarSet's selector and that were created after the SidecarSet."),
  updatedPods: Int32("updatedPods is the number of matched Pods that are injected with the latest SidecarSet's containers."),
  readyPods: Int32('readyPods is the number of matched Pods that have a ready condition.'),
  updatedReadyPods: Type.Optional(Int32('updatedReadyPods is the number of matched pods that are updated and ready.')),
  latestRevision: Type.Optional(Str('LatestRevision, if not empty, is the name of the latest ControllerRevision of the SidecarSet.')),
  collisionCount: Type.Optional(Int32('CollisionCount is the count of hash collisions for the SidecarSet. The SidecarSet controller uses it as a collision avoidance mechanism when it needs to create the name of the newest ControllerRevision.')),
});
export type SidecarSetStatus = Static<typeof SidecarSetStatusSchema>;

export const SidecarSetSchema = KindSchema('SidecarSet is the Schema for the sidecarsets API: it injects sidecar containers into the pods it selects and updates them in place.',
  SidecarSetSpecSchema, SidecarSetStatusSchema);
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
