// apps.kruise.io/v1alpha1 ImageListPullJob (spec/openkruise-v1.9.md §6): one ImagePullJob per image, from a shared
// template. Namespaced. The v1beta1 type is the same (v1beta1/image-pull-job.ts).
import type { KruiseObject } from './meta.js';
import type { ImagePullJobTemplate } from './image-pull-job.js';

export interface ImageListPullJobSpec extends ImagePullJobTemplate {
  /** Required; at most 255, no duplicates. */
  images: string[];
}

export interface FailedImageStatus {
  /** The child ImagePullJob's name. */
  imagePullJob?: string;
  name?: string;
  message?: string;
}

export interface ImageListPullJobStatus {
  startTime?: string;
  completionTime?: string;
  desired: number;
  active: number;
  completed: number;
  succeeded: number;
  failedImageStatuses?: FailedImageStatus[];
}

export type ImageListPullJob = KruiseObject<ImageListPullJobSpec, ImageListPullJobStatus>;
