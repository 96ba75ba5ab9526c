// apps.kruise.io/v1beta1 NodeImage, the storage version of OpenKruise v1.9 (spec/openkruise-v1.9.md §5.1). One field more
// than v1alpha1: `spec.images[*].pullSecrets[].mode` (`batch`: the Secret is a copy shared per source Secret, §7.1).
// The CRD uses conversion None, so a NodeImage read as v1alpha1 has no `mode` (pruned) and loses it if written back.
import type { KruiseObject } from '../meta.js';
import type { ImageTagSpec, NodeImageStatus, SandboxConfig } from '../node-image.js';

export type { ImagePullPhase, ImageStatus, ImageTagPullPolicy, ImageTagSpec, ImageTagStatus, NodeImageStatus, SandboxConfig, SyncStatus } from '../node-image.js';

/** Refs are compared by namespace/name only; `mode` says how the Secret was made. */
export interface ReferenceObject {
  namespace?: string;
  name?: string;
  /** omitempty; `batch` or absent. */
  mode?: 'batch' | string;
}

export interface ImageSpec {
  pullSecrets?: ReferenceObject[];
  tags: ImageTagSpec[];
  sandboxConfig?: SandboxConfig;
}

export interface NodeImageSpec {
  images?: Record<string, ImageSpec>;
}

export type NodeImage = KruiseObject<NodeImageSpec, NodeImageStatus>;
