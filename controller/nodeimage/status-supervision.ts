// The manager's watch over the daemon (spec/daemon-and-controllers.md §2.3 step 5): a tag the daemon never answered
// for within 10 minutes of createdAt, or that ran past createdAt + activeDeadlineSeconds + 10 minutes, is marked
// Failed by the manager, so jobs waiting on a node whose daemon is gone still finish. Pure.
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ImageTagStatus, NodeImage, NodeImageStatus } from '../../shared/api/node-image.js';
import { metaTime, parseMetaTime } from '../../shared/kube/meta-time.js';

/** Upstream's responseTimeout. */
export const DaemonResponseTimeoutMs = 10 * 60 * 1000;
export const NotRespondedMessage = 'node has not responded for a long time';
export const DeadlineExceededMessage = 'pulling exceeds the activeDeadlineSeconds';

export interface TagFailure {
  image: string;
  tag: string;
  message: string;
  owners: V1ObjectReference[];
}

export interface SupervisionResult {
  /** Present when imageStatuses changed: the full status to write. */
  status?: NodeImageStatus;
  failures: TagFailure[];
  /** Until the next response/deadline check is due. */
  requeueAfterMs?: number;
}

const byTag = (a: { tag: string }, b: { tag: string }) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);

export function superviseStatus(ni: NodeImage, now: number): SupervisionResult {
  const statuses: Record<string, { tags: ImageTagStatus[] }> = structuredClone(ni.status?.imageStatuses ?? {});
  const failures: TagFailure[] = [];
  let wait: number | undefined;
  const waitFor = (ms: number) => { wait = wait === undefined ? ms : Math.min(wait, ms); };

  for (const [image, spec] of Object.entries(ni.spec?.images ?? {})) {
    for (const tag of spec.tags ?? []) {
      const created = parseMetaTime(tag.createdAt);
      if (created === undefined) continue;
      const version = tag.version ?? 0;
      const entry = (statuses[image] ??= { tags: [] });
      const i = entry.tags.findIndex((t) => t.tag === tag.tag);
      const current = i >= 0 ? entry.tags[i] : undefined;
      const fail = (message: string) => {
        const failed: ImageTagStatus = { tag: tag.tag, phase: 'Failed', completionTime: metaTime(now), version, message };
        if (i >= 0) entry.tags[i] = failed; else entry.tags.push(failed);
        failures.push({ image, tag: tag.tag, message, owners: tag.ownerReferences ?? [] });
      };
      if (!current || (current.version ?? 0) !== version) {
        const left = created + DaemonResponseTimeoutMs - now;
        if (left > 0) { waitFor(left); continue; }
        fail(NotRespondedMessage);
        continue;
      }
      const deadline = tag.pullPolicy?.activeDeadlineSeconds;
      if (current.completionTime || deadline == null) continue;
      const left = created + deadline * 1000 + DaemonResponseTimeoutMs - now;
      if (left > 0) waitFor(left); else fail(DeadlineExceededMessage);
    }
  }
  const result: SupervisionResult = { failures, ...(wait !== undefined ? { requeueAfterMs: wait } : {}) };
  if (failures.length === 0) return result;
  result.status = recount(ni, statuses);
  return result;
}

/** Statuses pruned to what the spec holds, counters recomputed; `waiting` is the daemon's and is kept. */
function recount(ni: NodeImage, statuses: Record<string, { tags: ImageTagStatus[] }>): NodeImageStatus {
  const pruned: Record<string, { tags: ImageTagStatus[] }> = {};
  let desired = 0, pulling = 0, succeeded = 0, failed = 0;
  for (const [image, spec] of Object.entries(ni.spec?.images ?? {})) {
    const wanted = new Set((spec.tags ?? []).map((t) => t.tag));
    desired += wanted.size;
    const tags = (statuses[image]?.tags ?? []).filter((t) => wanted.has(t.tag)).sort(byTag);
    for (const t of tags) {
      if (t.phase === 'Pulling') pulling++;
      else if (t.phase === 'Succeeded') succeeded++;
      else if (t.phase === 'Failed') failed++;
    }
    if (tags.length) pruned[image] = { tags };
  }
  const out: NodeImageStatus = { ...ni.status, desired, pulling, succeeded, failed, waiting: ni.status?.waiting ?? 0 };
  if (Object.keys(pruned).length) out.imageStatuses = pruned; else delete out.imageStatuses;
  return out;
}
