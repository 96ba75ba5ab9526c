// An ImagePullJob's status from its target NodeImages (spec/daemon-and-controllers.md §3.2 step 7), and which
// targets still need a write: nodes without the job's tag (limited by parallelism) and nodes whose tag misses a pull
// secret or drifted from an edited job (fixed regardless of parallelism: they start no new pull).
import type { ImagePullJob, ImagePullJobStatus } from '../../shared/api/image-pull-job.js';
import type { ImageTagSpec, NodeImage, ReferenceObject } from '../../shared/api/node-image.js';
import { parseMetaTime } from '../../shared/kube/meta-time.js';

export const CompletedMessage = 'job has completed';
export const DeadlineMessage = 'job exceeds activeDeadlineSeconds';

export interface StatusInput {
  job: ImagePullJob;
  /** Familiar image name and tag (normalizeImageRef of spec.image). */
  image: { name: string; tag: string };
  targets: readonly NodeImage[];
  /** Pull-secret refs every target image must list. */
  secrets: readonly ReferenceObject[];
  /** True when a tag owned by this job no longer matches the job's pull policy. */
  drifted(tag: ImageTagSpec): boolean;
  now: number;
  /** metav1.Time for `now`. */
  nowTime: string;
}

export interface StatusResult {
  status: ImagePullJobStatus;
  /** Targets without this job's tag, by name. */
  notSynced: string[];
  /** Targets with this job's tag that need missing secrets or an aligned policy. */
  needsUpdate: string[];
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Go's `%.1f`: rounds the exact binary value half to even, where toFixed rounds half up. They differ only on exact
 * ties (x.x5 exactly representable, e.g. 0.25 → "0.2"); toFixed(100) exposes the exact expansion to detect them.
 */
export function formatPercent(value: number): string {
  const [whole, frac = ''] = value.toFixed(100).split('.');
  if (frac[1] === '5' && /^0*$/.test(frac.slice(2)) && Number(frac[0]) % 2 === 0) return `${whole}.${frac[0]}`;
  return value.toFixed(1);
}

export function statusMessage(s: ImagePullJobStatus): string {
  if (s.completionTime) return CompletedMessage;
  if (s.desired === 0) return 'job is running, no progress';
  return `job is running, progress ${formatPercent((100 * (s.succeeded + s.failed)) / s.desired)}%`;
}

export function computeStatus(input: StatusInput): StatusResult {
  const { job, image, now } = input;
  const uid = job.metadata?.uid;
  const startTime = job.status?.startTime ?? input.nowTime;
  const notSynced: string[] = [], needsUpdate: string[] = [], pulling: string[] = [], succeeded: string[] = [], failed: string[] = [];
  for (const ni of input.targets) {
    const name = ni.metadata?.name ?? '';
    const spec = ni.spec?.images?.[image.name];
    const tag = spec?.tags?.find((t) => t.tag === image.tag);
    if (!tag || !tag.ownerReferences?.some((r) => r.uid === uid)) {
      notSynced.push(name);
      continue;
    }
    const have = spec?.pullSecrets ?? [];
    if (input.secrets.some((s) => !have.some((h) => h.namespace === s.namespace && h.name === s.name)) || input.drifted(tag)) needsUpdate.push(name);
    const st = ni.status?.imageStatuses?.[image.name]?.tags?.find((t) => t.tag === image.tag);
    if (!st || (st.version ?? 0) !== (tag.version ?? 0)) pulling.push(name);
    else if (st.phase === 'Succeeded') succeeded.push(name);
    else if (st.phase === 'Failed') failed.push(name);
    else pulling.push(name);
  }
  notSynced.sort(byName);
  const desired = input.targets.length;
  const cp = job.spec?.completionPolicy ?? {};
  const finishes = cp.type !== 'Never';
  const deadline = cp.activeDeadlineSeconds;
  const started = parseMetaTime(startTime) ?? now;
  if (finishes && deadline != null && desired !== succeeded.length + failed.length && now - started >= deadline * 1000) {
    const all = [...failed, ...pulling, ...notSynced].sort(byName);
    return {
      status: { startTime, completionTime: input.nowTime, desired, active: 0, succeeded: succeeded.length, failed: all.length,
        message: DeadlineMessage, ...(all.length ? { failedNodes: all } : {}) },
      notSynced: [], needsUpdate: [],
    };
  }
  const status: ImagePullJobStatus = { startTime, desired, active: pulling.length, succeeded: succeeded.length, failed: failed.length };
  if (failed.length) status.failedNodes = failed.sort(byName);
  if (finishes && desired - succeeded.length - failed.length === 0) status.completionTime = input.nowTime;
  status.message = statusMessage(status);
  return { status, notSynced, needsUpdate };
}

/** `parallelism.IntValue()`: default 1; a string is parsed as an integer (0 when it is not one). */
export function parallelismOf(job: ImagePullJob): number {
  const p = job.spec?.parallelism;
  if (p === undefined || p === null) return 1;
  if (typeof p === 'number') return p;
  return /^[+-]?\d+$/.test(p) ? Number(p) : 0;
}
