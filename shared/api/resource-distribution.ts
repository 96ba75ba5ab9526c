// apps.kruise.io/v1alpha1 ResourceDistribution (spec/daemon-and-controllers.md §5.1). Cluster-scoped, short name `distributor`.
import type { KruiseObject, LabelSelector } from './meta.js';

export interface ResourceDistributionNamespace {
  name: string;
}

export interface ResourceDistributionTargetNamespaces {
  list?: ResourceDistributionNamespace[];
}

export interface ResourceDistributionTargets {
  allNamespaces?: boolean;
  excludedNamespaces?: ResourceDistributionTargetNamespaces;
  includedNamespaces?: ResourceDistributionTargetNamespaces;
  namespaceLabelSelector?: LabelSelector;
}

export interface ResourceDistributionSpec {
  /** A whole embedded v1 Secret or ConfigMap; unknown fields preserved (RawExtension). */
  resource: Record<string, unknown>;
  targets: ResourceDistributionTargets;
}

export type ResourceDistributionConditionType =
  | 'GetResourceFailed'
  | 'CreateResourceFailed'
  | 'UpdateResourceFailed'
  | 'DeleteResourceFailed'
  | 'ConflictOccurred'
  | 'NamespaceNotExists';

export interface ResourceDistributionCondition {
  type: ResourceDistributionConditionType | string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime?: string;
  reason?: string;
  /** Singular JSON key in v1alpha1 (v1beta1 renames it failedNamespaces). */
  failedNamespace?: string[];
}

export interface ResourceDistributionStatus {
  desired?: number;
  succeeded?: number;
  failed?: number;
  observedGeneration?: number;
  conditions?: ResourceDistributionCondition[];
}

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
