// apps.kruise.io/v1beta1 NodeImage, the storage version of OpenKruise v1.9 (spec/openkruise-v1.9.md §5.1). One field more
// than v1alpha1: `spec.images[*].pullSecrets[].mode` (`batch`: the Secret is a copy shared per source Secret, §7.1).
// The CRD uses conversion None, so a NodeImage read as v1alpha1 has no `mode` (pruned) and loses it if written back.
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject } from '../meta.js';
import { imageSpecSchemas, NODE_IMAGE_DESCRIPTION, NodeImageStatusSchema, ReferenceObjectSchema as ReferenceObjectSchemaV1alpha1, type NodeImageStatus } from '../node-image.js';
import { KindSchema, Obj, Str } from '../schema.js';

export type { ImagePullPhase, ImageStatus, ImageTagPullPolicy, ImageTagSpec, ImageTagStatus, NodeImageStatus, SandboxConfig, SyncStatus } from '../node-image.js';

/** Refs are compared by namespace/name only; `mode` says how the Secret was made. */
export const ReferenceObjectSchema = Obj(ReferenceObjectSchemaV1alpha1.description!, {
  ...ReferenceObjectSchemaV1alpha1.properties,
  mode: Type.Optional(Str('Mode is the mode of the referenced Secret: batch means it is a copy in kruise-daemon-config shared by the jobs that use the same source Secret.')),
});
export type ReferenceObject = Static<typeof ReferenceObjectSchema>;

const specs = imageSpecSchemas(ReferenceObjectSchema);
export const ImageSpecSchema = specs.imageSpec;
export type ImageSpec = Static<typeof ImageSpecSchema>;
export const NodeImageSpecSchema = specs.nodeImageSpec;
export type NodeImageSpec = Static<typeof NodeImageSpecSchema>;

export const NodeImageSchema = KindSchema(NODE_IMAGE_DESCRIPTION, NodeImageSpecSchema, NodeImageStatusSchema);
export type NodeImage = KruiseObject<NodeImageSpec, NodeImageStatus>;

/** The one value of ReferenceObject.mode. */
export const ReferenceModeBatch = 'batch';
