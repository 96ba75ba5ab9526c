// Pure core of the node's image puller (spec/daemon-and-controllers.md §2.4): from the NodeImage spec, its
// current status, the pulls this daemon has in memory and `now`, decide which pulls to start, cancel or expire,
// and what status to report.
import type { V1ObjectReference } from '@kubernetes/client-node';
import {
  DefaultImagePullBackoffLimit, DefaultImagePullTimeoutSeconds,
  type ImageTagSpec, type ImageTagStatus, type NodeImageSpec, type NodeImageStatus, type ReferenceObject, type SandboxConfig,
} from '../../shared/api/node-image.js';

export const DEADLINE_MESSAGE = 'pulling exceeds the activeDeadlineSeconds';

/** Everything one pull needs, resolved from the spec; `policyKey` tells whether a running pull still fits the spec. */
export interface PullTask {
  name: string;
  tag: string;
  version: number;
  timeoutSeconds: number;
  /** Retries after the first attempt. */
  backoffLimit: number;
  activeDeadlineSeconds?: number;
  ifNotPresent: boolean;
  pullSecrets: ReferenceObject[];
  sandboxConfig?: SandboxConfig;
  ownerReferences: V1ObjectReference[];
  policyKey: string;
}

/** A pull this daemon knows about: running, queued, or finished but not yet adopted from the written status. */
export interface ObservedPull {
  task: PullTask;
  status: ImageTagStatus;
}

export interface PlanInput {
  spec: NodeImageSpec | undefined;
  status: NodeImageStatus | undefined;
  pulls: readonly ObservedPull[];
  nowMs: number;
}

export interface PullRef {
  name: string;
  tag: string;
}

export interface Plan {
  start: PullTask[];
  /** Pulls to stop silently: tag or image left the spec, version or policy changed (restarted via `start`). */
  cancel: PullRef[];
  /** Running pulls past activeDeadlineSeconds since their startTime: to fail with DEADLINE_MESSAGE. */
  expired: PullRef[];
  status: NodeImageStatus;
}

export const pullKey = (name: string, tag: string): string => `${name}:${tag}`;

export function taskFor(name: string, tag: ImageTagSpec, pullSecrets: ReferenceObject[] = [], sandboxConfig?: SandboxConfig): PullTask {
  const p = tag.pullPolicy ?? {};
  const backoff = p.backoffLimit ?? DefaultImagePullBackoffLimit;
  const task: PullTask = {
    name, tag: tag.tag, version: tag.version ?? 0,
    // Only an unset timeout defaults: upstream honours an explicit 0 (every attempt times out at once).
    timeoutSeconds: p.timeoutSeconds ?? DefaultImagePullTimeoutSeconds,
    backoffLimit: backoff < 0 ? DefaultImagePullBackoffLimit : backoff,
    ifNotPresent: tag.imagePullPolicy === 'IfNotPresent',
    pullSecrets, ownerReferences: tag.ownerReferences ?? [], policyKey: '',
  };
  if (p.activeDeadlineSeconds) task.activeDeadlineSeconds = p.activeDeadlineSeconds;
  if (sandboxConfig) task.sandboxConfig = sandboxConfig;
  task.policyKey = JSON.stringify([task.timeoutSeconds, task.backoffLimit, task.activeDeadlineSeconds ?? null, task.ifNotPresent]);
  return task;
}

const isFinished = (s: ImageTagStatus): boolean => s.completionTime !== undefined;

function expiredAt(pull: ObservedPull, nowMs: number): boolean {
  const { task, status } = pull;
  if (!task.activeDeadlineSeconds || !status.startTime || isFinished(status)) return false;
  return Date.parse(status.startTime) + task.activeDeadlineSeconds * 1000 <= nowMs;
}

export function planSync(input: PlanInput): Plan {
  const observed = new Map(input.pulls.map((p) => [pullKey(p.task.name, p.task.tag), p]));
  const wanted = new Set<string>();
  const plan: Plan = { start: [], cancel: [], expired: [], status: { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0 } };
  const imageStatuses: NonNullable<NodeImageStatus['imageStatuses']> = {};

  for (const [name, image] of Object.entries(input.spec?.images ?? {})) {
    const written = new Map((input.status?.imageStatuses?.[name]?.tags ?? []).map((t) => [t.tag, t]));
    const tags: ImageTagStatus[] = [];
    for (const tagSpec of image.tags ?? []) {
      plan.status.desired++;
      const key = pullKey(name, tagSpec.tag);
      wanted.add(key);
      const task = taskFor(name, tagSpec, image.pullSecrets, image.sandboxConfig);
      const prior = written.get(tagSpec.tag);
      const pull = observed.get(key);
      const current = pull && pull.task.version === task.version && pull.task.policyKey === task.policyKey ? pull : undefined;
      if (pull && !current) plan.cancel.push({ name, tag: tagSpec.tag });
      // A finished result for this version, already written, survives daemon restarts: never pulled again.
      if (prior && prior.version === task.version && isFinished(prior) && !current) {
        tags.push(prior);
      } else if (current) {
        tags.push(current.status);
        if (expiredAt(current, input.nowMs)) plan.expired.push({ name, tag: tagSpec.tag });
      } else {
        plan.start.push(task);
        tags.push({ tag: task.tag, phase: 'Waiting', version: task.version });
      }
    }
    if (tags.length > 0) imageStatuses[name] = { tags: tags.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0)) };
  }
  for (const [key, pull] of observed) if (!wanted.has(key)) plan.cancel.push({ name: pull.task.name, tag: pull.task.tag });

  for (const { tags } of Object.values(imageStatuses)) {
    for (const t of tags) {
      if (t.phase === 'Succeeded') plan.status.succeeded++;
      else if (t.phase === 'Failed') plan.status.failed++;
      else if (t.phase === 'Pulling') plan.status.pulling++;
      else if (t.phase === 'Waiting') plan.status.waiting++;
    }
  }
  if (Object.keys(imageStatuses).length > 0) plan.status.imageStatuses = imageStatuses;
  return plan;
}

/** §2.4 step 5: poll quickly while anything is unfinished or behind the spec's version, slowly otherwise. */
export function needsFastRequeue(spec: NodeImageSpec | undefined, status: NodeImageStatus): boolean {
  if (status.succeeded + status.failed < status.desired) return true;
  for (const [name, image] of Object.entries(spec?.images ?? {})) {
    const byTag = new Map((status.imageStatuses?.[name]?.tags ?? []).map((t) => [t.tag, t]));
    if (image.tags.some((t) => byTag.get(t.tag)?.version !== (t.version ?? 0))) return true;
  }
  return false;
}

/** metav1.Time's JSON form: RFC 3339, whole seconds. */
export const toApiTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
