// apps.kruise.io/v1beta1 ImagePullJob and ImageListPullJob, the storage versions of OpenKruise v1.9
// (spec/openkruise-v1.9.md §5.1): the same fields as v1alpha1 (the CRDs use conversion None, so the apiserver only
// rewrites apiVersion). Only the ImagePullJob printer columns differ: v1beta1 has no MESSAGE column.
export type {
  CompletionPolicy,
  CompletionPolicyType,
  ImagePullJob,
  ImagePullJobNodeSelector,
  ImagePullJobSpec,
  ImagePullJobStatus,
  ImagePullJobTemplate,
  PullPolicy,
} from '../image-pull-job.js';
export type { FailedImageStatus, ImageListPullJob, ImageListPullJobSpec, ImageListPullJobStatus } from '../image-list-pull-job.js';
