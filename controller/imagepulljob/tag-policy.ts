// The per-tag pull policy an ImagePullJob writes into NodeImages (spec/daemon-and-controllers.md §3.2, "Derived
// per-tag pullPolicy"), and whether a tag already written still matches the job — the fix for openkruise/kruise#2221,
// where editing a running job's pullPolicy never reached the NodeImages.
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { DefaultImagePullBackoffLimit, DefaultImagePullTimeoutSeconds, type ImageTagPullPolicy, type ImageTagSpec } from '../../shared/api/node-image.js';

/** Never jobs: tags expire from NodeImages after 24 h ± 10 min, and the job re-adds them (a periodic re-pull). */
export const NeverTtlSeconds = 24 * 3600;
export const NeverTtlJitterSeconds = 600;
export const NeverMinActiveDeadlineSeconds = 1800;
/** Always jobs: random extra TTL on top of the configured default, so tags of one job do not all expire together. */
export const AlwaysTtlJitterSeconds = 300;

export interface PolicySettings {
  /** DEFAULT_TTLSECONDS_FOR_ALWAYS_NODEIMAGE (upstream --default-ttlseconds-for-always-nodeimage, 300). */
  defaultTtlSecondsForAlways: number;
}

const isNever = (job: ImagePullJob) => job.spec?.completionPolicy?.type === 'Never';

/** [min, max) of the TTL this job writes; the random part is drawn inside it. */
function ttlRange(job: ImagePullJob, s: PolicySettings): [number, number] {
  if (isNever(job)) return [NeverTtlSeconds - NeverTtlJitterSeconds, NeverTtlSeconds + NeverTtlJitterSeconds];
  const cp = job.spec?.completionPolicy ?? {};
  const pp = job.spec?.pullPolicy ?? {};
  const base = cp.ttlSecondsAfterFinished ?? cp.activeDeadlineSeconds
    ?? (pp.timeoutSeconds ?? DefaultImagePullTimeoutSeconds) * (pp.backoffLimit ?? DefaultImagePullBackoffLimit);
  const min = base + s.defaultTtlSecondsForAlways;
  return [min, min + AlwaysTtlJitterSeconds];
}

function activeDeadline(job: ImagePullJob): number | undefined {
  if (isNever(job)) return Math.max(NeverMinActiveDeadlineSeconds, job.spec?.pullPolicy?.timeoutSeconds ?? DefaultImagePullTimeoutSeconds);
  return job.spec?.completionPolicy?.activeDeadlineSeconds;
}

/** The pullPolicy for a new tag; `random` in [0, 1) picks the TTL inside its range. */
export function tagPullPolicy(job: ImagePullJob, s: PolicySettings, random: () => number): ImageTagPullPolicy {
  const [min, max] = ttlRange(job, s);
  const out: ImageTagPullPolicy = { ttlSecondsAfterFinished: min + Math.floor(random() * (max - min)) };
  const pp = job.spec?.pullPolicy;
  if (pp?.timeoutSeconds != null) out.timeoutSeconds = pp.timeoutSeconds;
  if (pp?.backoffLimit != null) out.backoffLimit = pp.backoffLimit;
  const deadline = activeDeadline(job);
  if (deadline != null) out.activeDeadlineSeconds = deadline;
  return out;
}

/**
 * The tag's pullPolicy/imagePullPolicy brought in line with the job, or undefined when they already match. A TTL
 * inside the job's range counts as matching (it was drawn at random); outside it is drawn again. Applies to the
 * next pull round of the tag: a pull in progress keeps the parameters it started with, as the daemon reads them when
 * it starts a worker.
 */
export function alignTag(tag: ImageTagSpec, job: ImagePullJob, s: PolicySettings, random: () => number):
  { pullPolicy: ImageTagPullPolicy; imagePullPolicy: string | undefined } | undefined {
  const have = tag.pullPolicy ?? {};
  const want = tagPullPolicy(job, s, random);
  const [min, max] = ttlRange(job, s);
  const ttl = have.ttlSecondsAfterFinished;
  const ttlOk = ttl != null && ttl >= min && ttl < max;
  const same = (have.timeoutSeconds ?? DefaultImagePullTimeoutSeconds) === (want.timeoutSeconds ?? DefaultImagePullTimeoutSeconds)
    && (have.backoffLimit ?? DefaultImagePullBackoffLimit) === (want.backoffLimit ?? DefaultImagePullBackoffLimit)
    && have.activeDeadlineSeconds === want.activeDeadlineSeconds
    && ttlOk
    && (tag.imagePullPolicy ?? '') === (job.spec?.imagePullPolicy ?? '');
  if (same) return undefined;
  return { pullPolicy: { ...want, ...(ttlOk ? { ttlSecondsAfterFinished: ttl } : {}) }, imagePullPolicy: job.spec?.imagePullPolicy };
}
