// Which ImagePullJobs a NodeImage, Pod or Secret change concerns (spec/daemon-and-controllers.md §3.2 "Watches").
// Events carry only the new object, so a NodeImage or pod that stopped matching is caught through the jobs' last
// targets and the owner index instead of an old/new comparison.
import type { V1Secret } from '@kubernetes/client-node';
import { ImagePullJobSecretReferencesAnnotation, type ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { matchesLabelSelector } from '../../shared/domain/label-selector.js';
import { changedTags, concerns } from './changed-tags.js';
import type { JobRef, OwnerIndex } from './owner-index.js';

export interface WatchState {
  jobs(): readonly ImagePullJob[];
  lastTargets: ReadonlyMap<string, ReadonlySet<string>>;
  index: Pick<OwnerIndex, 'jobsOn'>;
  mayTarget(job: ImagePullJob, ni: NodeImage): boolean;
  /** The job's image as NodeImages key it (familiar name, tag); undefined when spec.image does not parse. */
  imageOf(job: ImagePullJob): { name: string; tag: string } | undefined;
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

/**
 * The tag-level filter of an update (spec/openkruise-v1.9.md §7.3, kruise#2483): a job is woken when its match
 * flipped (it targeted the NodeImage at its last reconcile and no longer would, or the reverse), or when it targets
 * or owns a tag on the NodeImage and the update changed its own tag or its image as a whole; only active jobs (not
 * completed, not deleting) are woken, as upstream. Sibling jobs pulling
 * other tags of the same image sleep through each other's progress. A create, a delete or a NodeImage being deleted
 * wakes everyone as jobsForNodeImage does.
 */
export function jobsForNodeImageUpdate(s: WatchState, name: string, before: NodeImage | undefined, after: NodeImage | undefined, ownersBefore: readonly JobRef[]): Set<string> {
  if (!before || !after || after.metadata?.deletionTimestamp) return jobsForNodeImage(s, name, after, ownersBefore);
  const changed = changedTags(before, after);
  const owners = new Set([...ownersBefore, ...s.index.jobsOn(name)].map((r) => r.key));
  const out = new Set<string>();
  for (const job of s.jobs()) {
    const key = keyOf(job);
    // As upstream, only active jobs: a finished job places nothing, a deleting one withdraws through the owner index.
    if (!isActiveJob(job)) continue;
    const was = s.lastTargets.get(key)?.has(name) ?? false;
    const is = s.mayTarget(job, after);
    if (was !== is) { out.add(key); continue; }
    if (!changed.size || !(was || is || owners.has(key))) continue;
    const image = s.imageOf(job);
    if (image && concerns(changed, image)) out.add(key);
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
