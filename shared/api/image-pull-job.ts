// apps.kruise.io/v1alpha1 ImagePullJob (spec/daemon-and-controllers.md §3.1). Namespaced.
import type { IntOrString, KruiseObject, LabelSelector } from './meta.js';
import type { SandboxConfig } from './node-image.js';

export type CompletionPolicyType = 'Always' | 'Never';

/** Either `names` or the label-selector fields, never both. */
export interface ImagePullJobNodeSelector extends LabelSelector {
  names?: string[];
}

export interface PullPolicy {
  timeoutSeconds?: number;
  backoffLimit?: number;
}

/** Shared with BroadcastJob upstream. */
export interface CompletionPolicy {
  type?: CompletionPolicyType | string;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
}

export interface ImagePullJobTemplate {
  pullSecrets?: string[];
  selector?: ImagePullJobNodeSelector;
  podSelector?: LabelSelector;
  parallelism?: IntOrString;
  pullPolicy?: PullPolicy;
  completionPolicy: CompletionPolicy;
  sandboxConfig?: SandboxConfig;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | string;
}

export interface ImagePullJobSpec extends ImagePullJobTemplate {
  image: string;
}

export interface ImagePullJobStatus {
  startTime?: string;
  completionTime?: string;
  desired: number;
  active: number;
  succeeded: number;
  failed: number;
  message?: string;
  /** Sorted. */
  failedNodes?: string[];
}

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
