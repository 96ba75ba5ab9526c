// apps.kruise.io/v1alpha1 NodeImage (spec/daemon-and-controllers.md §2.1). Cluster-scoped, one per node (name = node name).
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { KruiseObject } from './meta.js';

export type ImagePullPhase = 'Waiting' | 'Pulling' | 'Succeeded' | 'Failed';

export interface ReferenceObject {
  namespace?: string;
  name?: string;
}

export interface SandboxConfig {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface ImageTagPullPolicy {
  timeoutSeconds?: number;
  backoffLimit?: number;
  /** Required by the webhook. */
  ttlSecondsAfterFinished?: number;
  activeDeadlineSeconds?: number;
}

export interface ImageTagSpec {
  tag: string;
  createdAt?: string;
  pullPolicy?: ImageTagPullPolicy;
  /** core ObjectReference (apiVersion, kind, name, namespace, uid), not metav1.OwnerReference. */
  ownerReferences?: V1ObjectReference[];
  version?: number;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | string;
}

export interface ImageSpec {
  pullSecrets?: ReferenceObject[];
  tags: ImageTagSpec[];
  sandboxConfig?: SandboxConfig;
}

export interface NodeImageSpec {
  /** Familiar image name without tag (`nginx`, `quay.io/org/app`) → what to pull. */
  images?: Record<string, ImageSpec>;
}

export interface ImageTagStatus {
  tag: string;
  phase: ImagePullPhase | string;
  progress?: number;
  startTime?: string;
  completionTime?: string;
  version?: number;
  imageID?: string;
  message?: string;
}

export interface ImageStatus {
  tags: ImageTagStatus[];
}

export interface SyncStatus {
  syncAt?: string;
  status?: 'Succeeded' | 'Failed' | string;
  message?: string;
}

export interface NodeImageStatus {
  desired: number;
  succeeded: number;
  failed: number;
  pulling: number;
  waiting: number;
  imageStatuses?: Record<string, ImageStatus>;
  /** In the API but written by nothing upstream. */
  firstSyncStatus?: SyncStatus;
}

export type NodeImage = KruiseObject<NodeImageSpec, NodeImageStatus>;

export const NodeImageMaxImages = 256;
export const DefaultImagePullTimeoutSeconds = 600;
export const DefaultImagePullBackoffLimit = 3;
/** A NodeImage with this label is kept even when its Node is gone. */
export const FakeNodeImageLabel = 'apps.kruise.io/fake-nodeimage';
