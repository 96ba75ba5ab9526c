// apps.kruise.io/v1alpha1 ResourceDistribution (spec/daemon-and-controllers.md §5.1). Cluster-scoped, short name `distributor`.
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject, LabelSelector } from './meta.js';
import { Bool, Core, CrdOptional, Int32, Int64, KindSchema, META_V1, Obj, Str, StrList, Time } from './schema.js';

export const ResourceDistributionNamespaceSchema = Obj('ResourceDistributionNamespace contains a namespace name.', {
  name: CrdOptional(Str('Namespace name.')),
});
export type ResourceDistributionNamespace = Static<typeof ResourceDistributionNamespaceSchema>;

const namespaceList = (description: string) => Obj(description, {
  list: Type.Optional(Type.Array(ResourceDistributionNamespaceSchema, { description: 'The namespaces, by name.' })),
});
export const ResourceDistributionTargetNamespacesSchema = namespaceList('ResourceDistributionTargetNamespaces is a list of namespace names.');
export type ResourceDistributionTargetNamespaces = Static<typeof ResourceDistributionTargetNamespacesSchema>;

export const ResourceDistributionTargetsSchema = Obj('Targets defines the namespaces that users want to distribute to.', {
  allNamespaces: Type.Optional(Bool('If AllNamespaces is true, Resource is distributed to all namespaces (except some forbidden namespaces, such as "kube-system" and "kube-public").')),
  excludedNamespaces: Type.Optional(namespaceList('If ExcludedNamespaces is not empty, Resource is never distributed to the listed namespaces. ExcludedNamespaces has the highest priority.')),
  includedNamespaces: Type.Optional(namespaceList('If IncludedNamespaces is not empty, Resource is distributed to the listed namespaces.')),
  namespaceLabelSelector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'If NamespaceLabelSelector is not empty, Resource is distributed to the matched namespaces.')),
});
export type ResourceDistributionTargets = Static<typeof ResourceDistributionTargetsSchema>;

export const ResourceDistributionSpecSchema = Obj('ResourceDistributionSpec defines the desired state of ResourceDistribution.', {
  /** A whole embedded v1 Secret or ConfigMap; unknown fields preserved (RawExtension). */
  resource: Type.Unsafe<Record<string, unknown>>({
    type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true,
    description: 'Resource must be the complete YAML of the object (a Secret or a ConfigMap) that users want to distribute.',
  }),
  targets: ResourceDistributionTargetsSchema,
});
export type ResourceDistributionSpec = Static<typeof ResourceDistributionSpecSchema>;

export type ResourceDistributionConditionType =
  | 'GetResourceFailed'
  | 'CreateResourceFailed'
  | 'UpdateResourceFailed'
  | 'DeleteResourceFailed'
  | 'ConflictOccurred'
  | 'NamespaceNotExists';

export const ResourceDistributionConditionSchema = Obj('ResourceDistributionCondition allows a row to be marked with additional information.', {
  type: Str('Type of ResourceDistributionCondition.'),
  status: Str('Status of the condition, one of True, False, Unknown.'),
  lastTransitionTime: Type.Optional(Time('LastTransitionTime is the last time the condition transitioned from one status to another.')),
  reason: Type.Optional(Str('Reason describes, in human readable form, the details of the last transition.')),
  /** Singular JSON key in v1alpha1 (v1beta1 renames it failedNamespaces). */
  failedNamespace: Type.Optional(StrList('FailedNamespaces describes all the failed namespaces when Status is False.')),
});
export type ResourceDistributionCondition = Static<typeof ResourceDistributionConditionSchema>;

export const ResourceDistributionStatusSchema = Obj("ResourceDistributionStatus defines the observed state of ResourceDistribution. It is recorded by kruise; users' modifications are invalid and meaningless.", {
  desired: Type.Optional(Int32('Desired represents the number of total target namespaces.')),
  succeeded: Type.Optional(Int32('Succeeded represents the number of successful distributions.')),
  failed: Type.Optional(Int32('Failed represents the number of failed distributions.')),
  observedGeneration: Type.Optional(Int64('ObservedGeneration represents the .metadata.generation that the condition was set based upon.')),
  conditions: Type.Optional(Type.Array(ResourceDistributionConditionSchema, { description: 'Conditions describe the condition when Resource creating, updating and deleting.' })),
});
export type ResourceDistributionStatus = Static<typeof ResourceDistributionStatusSchema>;

export const ResourceDistributionSchema = KindSchema('ResourceDistribution is the Schema for the resourcedistributions API: it copies a Secret or a ConfigMap into a set of namespaces and keeps the copies in sync.',
  ResourceDistributionSpecSchema, ResourceDistributionStatusSchema);
export type ResourceDistribution = KruiseObject<ResourceDistributionSpec, ResourceDistributionStatus>;

/** Always all six, in this order. */
export const ResourceDistributionConditionTypes: readonly ResourceDistributionConditionType[] = [
  'GetResourceFailed',
  'CreateResourceFailed',
  'UpdateResourceFailed',
  'DeleteResourceFailed',
  'ConflictOccurred',
  'NamespaceNotExists',
];

export const ResourceDistributionSourceAnnotation = 'kruise.io/resourcedistribution.resource.from';
export const ResourceDistributionDistributedTimestampAnnotation = 'kruise.io/resourcedistribution.resource.distributed.timestamp';
export const ResourceDistributionHashCodeAnnotation = 'kruise.io/resourcedistribution.resource.hashcode';
