// Plain JSON shapes of the Kubernetes core types kruise-ts reads and writes.
// We use @kubernetes/client-node's model classes only as *types*: admission objects stay plain JSON so unknown
// fields survive (kubernetes-client/javascript#2962).
import type {
  V1Container,
  V1LabelSelector,
  V1LocalObjectReference,
  V1ObjectFieldSelector,
  V1ObjectMeta,
  V1Pod,
  V1Volume,
} from '@kubernetes/client-node';

export type Container = V1Container;
export type Pod = V1Pod;
export type Volume = V1Volume;
export type LabelSelector = V1LabelSelector;
export type LocalObjectReference = V1LocalObjectReference;
export type ObjectFieldSelector = V1ObjectFieldSelector;
export type ObjectMeta = V1ObjectMeta;

/** Go's intstr.IntOrString as it appears in JSON: a number, or a string such as "10%". */
export type IntOrString = number | string;

export const KRUISE_GROUP = 'apps.kruise.io';
export const KRUISE_API_VERSION = 'apps.kruise.io/v1alpha1';
/** The storage version of SidecarSet, ImagePullJob, ImageListPullJob and NodeImage in OpenKruise v1.9. */
export const KRUISE_API_VERSION_V1BETA1 = 'apps.kruise.io/v1beta1';

export interface KruiseObject<Spec, Status> {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Spec;
  status?: Status;
}
