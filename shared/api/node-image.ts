// apps.kruise.io/v1alpha1 NodeImage (spec/daemon-and-controllers.md §2.1). Cluster-scoped, one per node (name = node name).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { KruiseObject } from './meta.js';
import { CORE_V1, Core, CrdOptional, Int32, Int64, KindSchema, MapOf, Obj, Str, StrMap, Time } from './schema.js';

export type ImagePullPhase = 'Waiting' | 'Pulling' | 'Succeeded' | 'Failed';

export const ReferenceObjectSchema = Obj('ReferenceObject comprises a resource name, with a mandatory namespace, rendered as "<namespace>/<name>".', {
  namespace: Type.Optional(Str('Namespace of the referenced object.')),
  name: Type.Optional(Str('Name of the referenced object.')),
});
export type ReferenceObject = Static<typeof ReferenceObjectSchema>;

export const SandboxConfigSchema = Obj('SandboxConfig attaches metadata to the PullImage call of the CRI (its pod sandbox config) when the image is pulled.', {
  labels: Type.Optional(StrMap('Labels of the pod sandbox config passed to PullImage.')),
  annotations: Type.Optional(StrMap('Annotations of the pod sandbox config passed to PullImage.')),
});
export type SandboxConfig = Static<typeof SandboxConfigSchema>;

export const ImageTagPullPolicySchema = Obj('PullPolicy is an optional field to set parameters of the pulling task. If not specified, the system uses the default values.', {
  timeoutSeconds: Type.Optional(Int32('Specifies the timeout of the pulling task. Defaults to 600.')),
  backoffLimit: Type.Optional(Int32('Specifies the number of retries before marking the pulling task failed. Defaults to 3.')),
  /** Required by the webhook. */
  ttlSecondsAfterFinished: Type.Optional(Int32("TTLSecondsAfterFinished limits the lifetime of a pulling task that has finished execution (either Complete or Failed). If set, the task is eligible to be deleted ttlSecondsAfterFinished after it finishes; if unset, it is never deleted automatically; zero makes it eligible to be deleted immediately after it finishes.")),
  activeDeadlineSeconds: Type.Optional(Int64('ActiveDeadlineSeconds specifies the duration in seconds relative to the startTime that the task may be active before the system tries to terminate it; value must be a positive integer. If not specified, the system never terminates it.')),
});
export type ImageTagPullPolicy = Static<typeof ImageTagPullPolicySchema>;

export const ImageTagSpecSchema = Obj('ImageTagSpec defines the pulling spec of an image tag.', {
  tag: Str('Specifies the image tag.'),
  createdAt: Type.Optional(Time('Specifies the creation time of this tag.')),
  pullPolicy: Type.Optional(ImageTagPullPolicySchema),
  /** core ObjectReference (apiVersion, kind, name, namespace, uid), not metav1.OwnerReference. */
  ownerReferences: Type.Optional(Type.Array(Core<V1ObjectReference>(`${CORE_V1}ObjectReference`, 'ObjectReference contains enough information to let you inspect or modify the referred object.'),
    { description: 'List of objects depended by this object. If this image is managed by a controller, then an entry in this list will point to this controller.' })),
  version: Type.Optional(Int64('An opaque value that represents the internal version of this tag, which clients can use to tell when it changed. Populated by the system. Read-only.')),
  imagePullPolicy: Type.Optional(Str('Image pull policy. One of Always, IfNotPresent. Defaults to IfNotPresent.')),
});
export type ImageTagSpec = Static<typeof ImageTagSpecSchema>;

/** ImageSpec and NodeImageSpec over a version's ReferenceObject (v1beta1's has `mode`, v1beta1/node-image.ts). */
export function imageSpecSchemas<R extends TSchema>(referenceObject: R) {
  const imageSpec = Obj('ImageSpec defines the pulling spec of an image.', {
    pullSecrets: Type.Optional(Type.Array(referenceObject, { description: 'PullSecrets is an optional list of references to secrets to use for pulling the image. If specified, these secrets are passed to individual puller implementations for them to use. For example, in the case of docker, only DockerConfig type secrets are honored.' })),
    tags: Type.Array(ImageTagSpecSchema, { description: 'Tags is a list of versions of this image.' }),
    sandboxConfig: Type.Optional(SandboxConfigSchema),
  });
  const nodeImageSpec = Obj('NodeImageSpec defines the desired state of NodeImage.', {
    /** Familiar image name without tag (`nginx`, `quay.io/org/app`) → what to pull. */
    images: Type.Optional(MapOf(imageSpec, 'Specifies the images to be pulled on this node, by image name without tag. There can be at most 256 for each NodeImage.')),
  });
  return { imageSpec, nodeImageSpec };
}

const v1alpha1Specs = imageSpecSchemas(ReferenceObjectSchema);
export const ImageSpecSchema = v1alpha1Specs.imageSpec;
export type ImageSpec = Static<typeof ImageSpecSchema>;
export const NodeImageSpecSchema = v1alpha1Specs.nodeImageSpec;
export type NodeImageSpec = Static<typeof NodeImageSpecSchema>;

export const ImageTagStatusSchema = Obj('ImageTagStatus defines the pulling status of an image tag.', {
  tag: Str('Represents the image tag.'),
  phase: Str('Represents the image pulling task phase: Waiting, Pulling, Succeeded or Failed.'),
  progress: Type.Optional(Int32('Represents the pulling progress of this tag, between 0 and 100. It is not guaranteed to be monotonic: it may go back when the pull is retried.')),
  startTime: Type.Optional(Time('Represents the time when the pulling task was acknowledged by the image puller. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC.')),
  completionTime: Type.Optional(Time('Represents the time when the pulling task was completed. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC.')),
  version: Type.Optional(Int64('Represents the internal version of this tag that the daemon handled.')),
  imageID: Type.Optional(Str('Represents the ID of this image.')),
  message: Type.Optional(Str('Represents the summary information of this pulling task.')),
});
export type ImageTagStatus = Static<typeof ImageTagStatusSchema>;

export const ImageStatusSchema = Obj('ImageStatus defines the pulling status of an image.', {
  tags: Type.Array(ImageTagStatusSchema, { description: 'Represents the statuses of the pulling tasks on this node.' }),
});
export type ImageStatus = Static<typeof ImageStatusSchema>;

export const SyncStatusSchema = Obj('SyncStatus is the result of a synchronisation of the node\'s images.', {
  syncAt: Type.Optional(Time('The time of the synchronisation.')),
  status: Type.Optional(Str('SyncStatusPhase defines the node status: Succeeded or Failed.')),
  message: Type.Optional(Str('A human readable message about the synchronisation.')),
});
export type SyncStatus = Static<typeof SyncStatusSchema>;

export const NodeImageStatusSchema = Obj('NodeImageStatus defines the observed state of NodeImage.', {
  desired: Int32('The desired number of pulling tasks; this is typically equal to the number of images in spec.'),
  succeeded: CrdOptional(Int32('The number of pulling tasks which reached phase Succeeded.')),
  failed: CrdOptional(Int32('The number of pulling tasks which reached phase Failed.')),
  pulling: CrdOptional(Int32('The number of pulling tasks which are not finished.')),
  waiting: CrdOptional(Int32('The number of pulling tasks which are waiting.')),
  imageStatuses: Type.Optional(MapOf(ImageStatusSchema, 'All statuses of active image pulling tasks, by image name without tag.')),
  /** In the API but written by nothing upstream. */
  firstSyncStatus: Type.Optional({ ...SyncStatusSchema, description: "The first of all jobs that has finished on this node. When a node is added to the cluster, this tells when the node's image pulling completed, to trigger the operations of upper systems." }),
});
export type NodeImageStatus = Static<typeof NodeImageStatusSchema>;

export const NODE_IMAGE_DESCRIPTION = 'NodeImage is the Schema for the nodeimages API: the images to pull on one node (its name is the node name) and the state of those pulls.';
export const NodeImageSchema = KindSchema(NODE_IMAGE_DESCRIPTION, NodeImageSpecSchema, NodeImageStatusSchema);
export type NodeImage = KruiseObject<NodeImageSpec, NodeImageStatus>;

export const NodeImageMaxImages = 256;
export const DefaultImagePullTimeoutSeconds = 600;
export const DefaultImagePullBackoffLimit = 3;
/** A NodeImage with this label is kept even when its Node is gone. */
export const FakeNodeImageLabel = 'apps.kruise.io/fake-nodeimage';
