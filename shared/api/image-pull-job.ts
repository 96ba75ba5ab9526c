// apps.kruise.io/v1alpha1 ImagePullJob (spec/daemon-and-controllers.md §3.1). Namespaced.
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject, LabelSelector } from './meta.js';
import { SandboxConfigSchema } from './node-image.js';
import { Core, CoreWith, CrdOptional, Int32, Int64, IntOrStr, KindSchema, META_V1, Obj, Str, StrList, Time } from './schema.js';

export type CompletionPolicyType = 'Always' | 'Never';

/** Either `names` or the label-selector fields, never both. */
export const ImagePullJobNodeSelectorSchema = CoreWith(
  Core<LabelSelector>(`${META_V1}LabelSelector`, 'Selector is a query over nodes that should match the job. nil to match all nodes.'),
  { names: Type.Optional(StrList('Names specify a set of nodes to execute the job.')) });
export type ImagePullJobNodeSelector = Static<typeof ImagePullJobNodeSelectorSchema>;

export const PullPolicySchema = Obj('PullPolicy is an optional field to set parameters of the pulling task. If not specified, the system uses the default values.', {
  timeoutSeconds: Type.Optional(Int32('Specifies the timeout of the pulling task. Defaults to 600.')),
  backoffLimit: Type.Optional(Int32('Specifies the number of retries before marking the pulling task failed. Defaults to 3.')),
});
export type PullPolicy = Static<typeof PullPolicySchema>;

/** Shared with BroadcastJob upstream. */
export const CompletionPolicySchema = Obj('CompletionPolicy indicates the completion policy of the job. Default is the Always CompletionPolicyType.', {
  type: Type.Optional(Str('Type indicates the type of the CompletionPolicy: Always or Never. Default is Always.')),
  activeDeadlineSeconds: Type.Optional(Int64('ActiveDeadlineSeconds specifies the duration in seconds relative to the startTime that the job may be active before the system tries to terminate it; value must be a positive integer. Only works for the Always type.')),
  ttlSecondsAfterFinished: Type.Optional(Int32("TTLSecondsAfterFinished limits the lifetime of a job that has finished execution (either Complete or Failed). If set, the job is eligible to be deleted ttlSecondsAfterFinished after it finishes (its finalizers are honoured); if unset, it is never deleted automatically; zero makes it eligible to be deleted immediately after it finishes. Only works for the Always type.")),
});
export type CompletionPolicy = Static<typeof CompletionPolicySchema>;

/** The fields of ImagePullJobTemplate, inlined into ImagePullJobSpec and ImageListPullJobSpec (Go `json:",inline"`). */
export const templateProperties = {
  pullSecrets: Type.Optional(StrList('ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling the image. If specified, these secrets are passed to individual puller implementations for them to use. For example, in the case of docker, only DockerConfig type secrets are honored.')),
  selector: Type.Optional(ImagePullJobNodeSelectorSchema),
  podSelector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'PodSelector is a query over pods that should pull the image on the nodes of these pods. Mutually exclusive with Selector.')),
  parallelism: Type.Optional(IntOrStr('Parallelism is the requested parallelism; it can be set to any non-negative value. If it is unspecified, it defaults to 1. If it is specified as 0, the Job is effectively paused until it is increased.')),
  pullPolicy: Type.Optional(PullPolicySchema),
  completionPolicy: CompletionPolicySchema,
  sandboxConfig: Type.Optional(SandboxConfigSchema),
  imagePullPolicy: Type.Optional(Str('Image pull policy. One of Always, IfNotPresent. Defaults to IfNotPresent.')),
};

export const ImagePullJobTemplateSchema = Obj('ImagePullJobTemplate describes how an image pull job runs.', templateProperties);
export type ImagePullJobTemplate = Static<typeof ImagePullJobTemplateSchema>;

export const ImagePullJobSpecSchema = Obj('ImagePullJobSpec defines the desired state of ImagePullJob.', {
  image: Str('Image is the image to be pulled by the job.'),
  ...templateProperties,
});
export type ImagePullJobSpec = Static<typeof ImagePullJobSpecSchema>;

export const ImagePullJobStatusSchema = Obj('ImagePullJobStatus defines the observed state of ImagePullJob.', {
  startTime: Type.Optional(Time('Represents the time when the job was acknowledged by the job controller. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC.')),
  completionTime: Type.Optional(Time('Represents the time when the job was completed. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC.')),
  desired: Int32('The desired number of pulling tasks; this is typically equal to the number of nodes satisfied.'),
  active: CrdOptional(Int32('The number of actively running pulling tasks.')),
  succeeded: CrdOptional(Int32('The number of pulling tasks which reached phase Succeeded.')),
  failed: CrdOptional(Int32('The number of pulling tasks which reached phase Failed.')),
  message: Type.Optional(Str('The text prompt for the job running status.')),
  /** Sorted. */
  failedNodes: Type.Optional(StrList('The nodes that failed to pull the image.')),
});
export type ImagePullJobStatus = Static<typeof ImagePullJobStatusSchema>;

export const ImagePullJobSchema = KindSchema('ImagePullJob is the Schema for the imagepulljobs API: it pulls an image on a set of nodes.',
  ImagePullJobSpecSchema, ImagePullJobStatusSchema);
export type ImagePullJob = KruiseObject<ImagePullJobSpec, ImagePullJobStatus>;

export const ImagePullJobDeletionProtectionFinalizer = 'apps.kruise.io/deletion-protection';
/** Read by CloneSet/Advanced StatefulSet pre-download, not by the ImagePullJob controller. */
export const ImagePreDownloadParallelismKey = 'apps.kruise.io/image-predownload-parallelism';
export const ImagePreDownloadTimeoutSecondsKey = 'apps.kruise.io/image-predownload-timeout-seconds';
export const ImagePreDownloadMinUpdatedReadyPods = 'apps.kruise.io/image-predownload-min-updated-ready-pods';
/** Pull-secret copies in kruise-daemon-config (spec/daemon-and-controllers.md §3.3). */
export const ImagePullJobSecretSourceKeyAnnotation = 'imagepulljobs.kruise.io/source-key';
export const ImagePullJobSecretReferencesAnnotation = 'imagepulljobs.kruise.io/references';
export const ImagePullJobSecretModeAnnotation = 'imagepulljobs.kruise.io/mode';
export const ImagePullJobSecretSourceUIDLabel = 'imagepulljobs.kruise.io/source-uid';
export const ImagePullJobSecretBatchMode = 'batch';
