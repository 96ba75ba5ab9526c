// apps.kruise.io ImageListPullJob (spec/openkruise-v1.9.md §6): one ImagePullJob per image, from a shared template.
// Namespaced. v1alpha1 and v1beta1 have the same fields (the CRD converts with None), so one schema serves both.
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject } from './meta.js';
import { templateProperties } from './image-pull-job.js';
import { CrdOptional, Int32, KindSchema, Obj, Str, StrList, Time } from './schema.js';

export const ImageListPullJobSpecSchema = Obj('ImageListPullJobSpec defines the desired state of ImageListPullJob.', {
  /** Required; at most 255, no duplicates (validation). */
  images: StrList('Images is the image list to be pulled by the job.'),
  ...templateProperties,
});
export type ImageListPullJobSpec = Static<typeof ImageListPullJobSpecSchema>;

export const FailedImageStatusSchema = Obj('FailedImageStatus the state of ImagePullJob which has the failed nodes(status.Failed>0).', {
  imagePullJob: Type.Optional(Str('The name of ImagePullJob which has the failed nodes(status.Failed>0).')),
  name: Type.Optional(Str('Name of the image.')),
  message: Type.Optional(Str('The text prompt for job running status.')),
});
export type FailedImageStatus = Static<typeof FailedImageStatusSchema>;

export const ImageListPullJobStatusSchema = Obj('ImageListPullJobStatus defines the observed state of ImageListPullJob.', {
  startTime: Type.Optional(Time('Represents time when the job was acknowledged by the job controller. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC.')),
  completionTime: Type.Optional(Time('Represents time when the all the image pull job was completed. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC.')),
  desired: Int32('The desired number of ImagePullJobs, this is typically equal to the number of len(spec.Images).'),
  // Optional in upstream's CRD (no +required marker) though its Go type always writes them; the controller does too.
  active: CrdOptional(Int32('The number of running ImagePullJobs which are acknowledged by the imagepulljob controller.')),
  completed: CrdOptional(Int32('The number of ImagePullJobs which are finished.')),
  succeeded: CrdOptional(Int32('The number of image pull job which are finished and status.Succeeded==status.Desired.')),
  failedImageStatuses: Type.Optional(Type.Array(FailedImageStatusSchema, { description: 'The status of ImagePullJob which has the failed nodes(status.Failed>0).' })),
});
export type ImageListPullJobStatus = Static<typeof ImageListPullJobStatusSchema>;

export const ImageListPullJobSchema = KindSchema('ImageListPullJob is the Schema for the imagelistpulljobs API: it pulls a list of images, one ImagePullJob per image.',
  ImageListPullJobSpecSchema, ImageListPullJobStatusSchema);
export type ImageListPullJob = KruiseObject<ImageListPullJobSpec, ImageListPullJobStatus>;
