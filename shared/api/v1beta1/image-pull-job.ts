// apps.kruise.io/v1beta1 ImagePullJob and ImageListPullJob, the storage versions of OpenKruise v1.9
// (spec/openkruise-v1.9.md §5.1): the same fields as v1alpha1 (the CRDs use conversion None, so the apiserver only
// rewrites apiVersion), so the schemas are v1alpha1's. Only the ImagePullJob printer columns differ: v1beta1 has no
// MESSAGE column (shared/api/crds.ts).
export {
  CompletionPolicySchema,
  ImagePullJobSchema,
  ImagePullJobSpecSchema,
  ImagePullJobStatusSchema,
  ImagePullJobTemplateSchema,
  PullPolicySchema,
  type CompletionPolicy,
  type CompletionPolicyType,
  type ImagePullJob,
  type ImagePullJobNodeSelector,
  type ImagePullJobSpec,
  type ImagePullJobStatus,
  type ImagePullJobTemplate,
  type PullPolicy,
} from '../image-pull-job.js';
export {
  FailedImageStatusSchema,
  ImageListPullJobSchema,
  ImageListPullJobSpecSchema,
  ImageListPullJobStatusSchema,
  type FailedImageStatus,
  type ImageListPullJob,
  type ImageListPullJobSpec,
  type ImageListPullJobStatus,
} from '../image-list-pull-job.js';
