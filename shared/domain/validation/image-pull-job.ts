// ImagePullJob admission (spec/webhooks.md §5.2, spec/daemon-and-controllers.md §3.1): defaulting, then validation.
// Upstream stops at the first problem and answers 400 with that message, so validation returns at most one
// Violation whose `detail` is the upstream message. Gates KruiseDaemon and ImagePullJobGate are assumed on.
import {
  ImagePullJobDeletionProtectionFinalizer,
  type ImagePullJob,
} from '../../api/image-pull-job.js';
import { DefaultImagePullBackoffLimit, DefaultImagePullTimeoutSeconds } from '../../api/node-image.js';
import type { Violation } from '../../errors.js';
import { parseImageReference } from '../image-ref.js';
import { goQuote } from '../resources-policy/go-quote.js';
import { validateJobSelectors } from './job-selectors.js';
import { deepEqual } from './sidecarset-conflicts.js';

/**
 * Returns a defaulted clone. The deletion-protection finalizer is added on a v1alpha1 CREATE only: v1.9's v1beta1
 * defaulting leaves it to the controller's first reconcile (spec/openkruise-v1.9.md §5.1).
 */
export function defaultImagePullJob(obj: ImagePullJob, operation: 'CREATE' | 'UPDATE' | string = 'CREATE', version: 'v1alpha1' | 'v1beta1' = 'v1alpha1'): ImagePullJob {
  const out = structuredClone(obj);
  const spec = (out.spec ??= { image: '', completionPolicy: {} });
  spec.completionPolicy ??= {};
  if (!spec.completionPolicy.type) spec.completionPolicy.type = 'Always';
  spec.pullPolicy ??= {};
  spec.pullPolicy.timeoutSeconds ??= DefaultImagePullTimeoutSeconds;
  spec.pullPolicy.backoffLimit ??= DefaultImagePullBackoffLimit;
  if (!spec.imagePullPolicy) spec.imagePullPolicy = 'IfNotPresent';
  if (operation === 'CREATE' && version === 'v1alpha1') {
    const meta = (out.metadata ??= {});
    const finalizers = (meta.finalizers ??= []);
    if (!finalizers.includes(ImagePullJobDeletionProtectionFinalizer)) finalizers.push(ImagePullJobDeletionProtectionFinalizer);
  }
  return out;
}

/**
 * kruise-ts's bound on spec.pullSecrets (upstream has none; docs/compatibility.md): the controller reads every listed
 * Secret when the job reconciles, so an uncapped list turned one object into thousands of GETs a minute (review N-M3).
 * Real jobs list a handful.
 */
export const MaxPullSecretsPerJob = 64;

/** apimachinery's field.TooMany: `<field>: Too many: <n>: must have at most <max> items`. */
export function tooManyPullSecrets(pullSecrets: readonly unknown[] | undefined): Violation[] {
  const n = pullSecrets?.length ?? 0;
  return n > MaxPullSecretsPerJob ? [{ field: 'spec.pullSecrets', type: 'Too many', value: n, detail: `must have at most ${MaxPullSecretsPerJob} items` }] : [];
}

const invalid = (field: string, value: unknown, detail: string): Violation[] => [{ field, type: 'Invalid value', value, detail }];

export function validateImagePullJob(obj: ImagePullJob, old: ImagePullJob | undefined): Violation[] {
  const spec = obj.spec ?? { image: '', completionPolicy: {} };
  // Go's reflect.DeepEqual: an absent list and an empty one differ (upstream TestPullSecretsImmutability).
  if (old && !sameList(spec.pullSecrets, old.spec?.pullSecrets)) {
    return [{ field: 'spec.pullSecrets', type: 'Forbidden', detail: 'spec.pullSecrets is immutable' }];
  }
  const tooMany = tooManyPullSecrets(spec.pullSecrets);
  if (tooMany.length > 0) return tooMany;
  const selectors = validateJobSelectors(spec);
  if (selectors.length > 0) return selectors;
  if (!spec.image) return [{ field: 'spec.image', type: 'Required value', detail: 'image can not be empty' }];
  const parsed = parseImageReference(spec.image);
  if (!parsed.ok) return invalid('spec.image', spec.image, `invalid image ${spec.image}: ${parsed.error}`);
  // After the image, as upstream's validate() orders it.
  const parallelism = validateParallelism(spec.parallelism);
  if (parallelism) return invalid('spec.parallelism', spec.parallelism, parallelism);
  const timeout = spec.pullPolicy?.timeoutSeconds ?? DefaultImagePullTimeoutSeconds;
  const cp = spec.completionPolicy ?? {};
  switch (cp.type) {
    case 'Always':
      if (cp.activeDeadlineSeconds != null && timeout > cp.activeDeadlineSeconds) {
        return invalid('spec.completionPolicy.activeDeadlineSeconds', cp.activeDeadlineSeconds, 'completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)');
      }
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

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === undefined || b === undefined ? a === b : deepEqual(a, b);

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * v1.9 rule (spec/openkruise-v1.9.md §5.1): an integer (or integer string) ≥ 0; percentages are not supported. A
 * string is read as Go's strconv.ParseInt(s, 10, 32), whose error the message carries.
 */
export function validateParallelism(p: number | string | undefined): string | undefined {
  if (p === undefined || p === null) return undefined;
  if (typeof p === 'number') return p < 0 ? 'parallelism must be non-negative' : undefined;
  if (p.endsWith('%')) return 'parallelism does not support percentage value';
  const parseError = (why: string) => `parallelism must be a valid integer: strconv.ParseInt: parsing ${goQuote(p)}: ${why}`;
  if (!/^[+-]?[0-9]+$/.test(p)) return parseError('invalid syntax');
  const n = BigInt(p);
  if (n < BigInt(INT32_MIN) || n > BigInt(INT32_MAX)) return parseError('value out of range');
  return n < 0n ? 'parallelism must be non-negative' : undefined;
}

/**
 * The HTTP status upstream answers for a violation from validateImagePullJob: pullSecrets immutability is a
 * Denied (403), everything else Errored(400).
 */
export function imagePullJobDenialCode(v: Violation): 400 | 403 {
  return v.field === 'spec.pullSecrets' ? 403 : 400;
}
