// Which ImagePullJobs a NodeImage, Pod or Secret change concerns (spec/daemon-and-controllers.md §3.2 "Watches").
// Events carry only the new object, so a NodeImage or pod that stopped matching is caught through the jobs' last
// targets and the owner index instead of an old/new comparison.
import type { V1Secret } from '@kubernetes/client-node';
import { ImagePullJobSecretReferencesAnnotation, type ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { matchesLabelSelector } from '../../shared/domain/label-selector.js';
import type { JobRef, OwnerIndex } from './owner-index.js';

export interface WatchState {
  jobs(): readonly ImagePullJob[];
  lastTargets: ReadonlyMap<string, ReadonlySet<string>>;
  index: Pick<OwnerIndex, 'jobsOn'>;
  mayTarget(job: ImagePullJob, ni: NodeImage): boolean;
}

const keyOf = (j: ImagePullJob) => `${j.metadata?.namespace}/${j.metadata?.name}`;
/** Still placing tags: not deleting, not completed. */
export const isActiveJob = (j: ImagePullJob) => !j.metadata?.deletionTimestamp && !j.status?.completionTime;

/**
 * Jobs owning a tag on the NodeImage (before or after the change: progress and removals), and active jobs that
 * targeted it last time or would target it now (membership changes, new nodes). `ni` is undefined when deleted.
 */
export function jobsForNodeImage(s: WatchState, name: string, ni: NodeImage | undefined, ownersBefore: readonly JobRef[]): Set<string> {
  const out = new Set<string>([...ownersBefore, ...s.index.jobsOn(name)].map((r) => r.key));
  for (const job of s.jobs()) {
    if (!isActiveJob(job)) continue;
    const key = keyOf(job);
    if (out.has(key)) continue;
    if (s.lastTargets.get(key)?.has(name) || (ni && s.mayTarget(job, ni))) out.add(key);
  }
  return out;
}

/** Active podSelector jobs of the pod's namespace that select it, or that targeted its node last time. */
export function jobsForPod(s: WatchState, pod: Pod): string[] {
  const out: string[] = [];
  for (const job of s.jobs()) {
    const sel = job.spec?.podSelector;
    if (!sel || !isActiveJob(job) || job.metadata?.namespace !== pod.metadata?.namespace) continue;
    let matches = false;
    try { matches = matchesLabelSelector(sel, pod.metadata?.labels); } catch { /* the job's reconcile reports it */ }
    const node = pod.spec?.nodeName;
    if (matches || (node && s.lastTargets.get(keyOf(job))?.has(node))) out.push(keyOf(job));
  }
  return out;
}

/** For a copy in the daemon namespace: the jobs it references (a deleted copy is recreated). Else: active jobs listing it. */
export function jobsForSecret(s: WatchState, secret: V1Secret, daemonNamespace: string): string[] {
  const ns = secret.metadata?.namespace;
  if (ns === daemonNamespace) {
    const refs = (secret.metadata?.annotations?.[ImagePullJobSecretReferencesAnnotation] ?? '').split(',').filter(Boolean);
    if (refs.length) return refs;
  }
  return s.jobs().filter((j) => isActiveJob(j) && j.metadata?.namespace === ns && (j.spec?.pullSecrets ?? []).includes(secret.metadata?.name ?? '')).map(keyOf);
}
