// ImageListPullJob admission (spec/openkruise-v1.9.md §6): defaulting, then validation. As upstream, validation
// stops at the first problem (400) and returns at most one Violation whose `detail` is upstream's message. Unlike
// ImagePullJob: no finalizer, no imagePullPolicy default (the children get theirs from the ImagePullJob webhook),
// no deadline-vs-timeout, parallelism or pullSecrets rule (but kruise-ts's pullSecrets cap). Both versions behave alike.
import type { ImageListPullJob } from '../../api/image-list-pull-job.js';
import { DefaultImagePullBackoffLimit, DefaultImagePullTimeoutSeconds } from '../../api/node-image.js';
import type { Violation } from '../../errors.js';
import { parseImageReference } from '../image-ref.js';
import { tooManyPullSecrets } from './image-pull-job.js';
import { validateJobSelectors } from './job-selectors.js';

export const MaxImagesPerImageListPullJob = 255;

/** A defaulted clone: completionPolicy.type "" → Always; pullPolicy {600, 3}. */
export function defaultImageListPullJob(obj: ImageListPullJob): ImageListPullJob {
  const out = structuredClone(obj);
  const spec = (out.spec ??= { images: [], completionPolicy: {} });
  spec.completionPolicy ??= {};
  if (!spec.completionPolicy.type) spec.completionPolicy.type = 'Always';
  spec.pullPolicy ??= {};
  spec.pullPolicy.timeoutSeconds ??= DefaultImagePullTimeoutSeconds;
  spec.pullPolicy.backoffLimit ??= DefaultImagePullBackoffLimit;
  return out;
}

export function validateImageListPullJob(obj: ImageListPullJob): Violation[] {
  const spec = obj.spec ?? { images: [], completionPolicy: {} };
  // Each child ImagePullJob carries this list and would be refused by its own webhook (kruise-ts's cap).
  const tooMany = tooManyPullSecrets(spec.pullSecrets);
  if (tooMany.length > 0) return tooMany;
  const selectors = validateJobSelectors(spec);
  if (selectors.length) return selectors;
  const images = spec.images ?? [];
  if (images.length === 0) return [{ field: 'spec.images', type: 'Required value', detail: 'image can not be empty' }];
  const seen = new Set<string>();
  for (const image of images) {
    if (seen.has(image)) return [{ field: 'spec.images', type: 'Duplicate value', value: image, detail: 'images cannot have duplicate values' }];
    seen.add(image);
  }
  if (images.length > MaxImagesPerImageListPullJob) {
    return [{ field: 'spec.images', type: 'Too long', detail: `the maximum number of images cannot > ${MaxImagesPerImageListPullJob}` }];
  }
  for (const [i, image] of images.entries()) {
    const parsed = parseImageReference(image);
    if (!parsed.ok) return [{ field: `spec.images[${i}]`, type: 'Invalid value', value: image, detail: `invalid image ${image}: ${parsed.error}` }];
  }
  const cp = spec.completionPolicy ?? {};
  switch (cp.type) {
    case 'Always':
      break;
    case 'Never':
      if (cp.activeDeadlineSeconds != null || cp.ttlSecondsAfterFinished != null) {
        return [{ field: 'spec.completionPolicy', type: 'Forbidden', detail: 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType' }];
      }
      break;
    default:
      return [{ field: 'spec.completionPolicy.type', type: 'Unsupported value', value: cp.type ?? '', detail: `unknown type of completionPolicy: ${cp.type ?? ''}` }];
  }
  return [];
}
