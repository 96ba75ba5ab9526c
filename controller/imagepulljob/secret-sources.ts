// The source Secrets of a job's pull-secret copies, read on demand. The controller caches Secrets of the daemon-config
// namespace only (the copies): caching every Secret of the cluster to find a few sources held all of them in the
// manager's heap (review H2). A source is read with a GET (the REST client's per-request timeout applies) when a job
// reconciles, and active jobs with sources come back every SOURCE_RESYNC_MS so an edited source still reaches its
// copies without a cluster-wide watch (upstream watches every Secret for that; docs/compatibility.md).
import type { V1Secret } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { Result } from '../../shared/reconcile/types.js';
import { isActiveJob } from './watch.js';

/** How long an edit of a source Secret may take to reach its copies (a job with many sources: see sourceReadIntervalMs). */
export const SOURCE_RESYNC_MS = 60_000;
/** Source GETs a job may cost, on average: one per this long (review N-M3). */
export const SOURCE_READ_SPACING_MS = 1000;
/** Source GETs of one job in flight at once. */
const SOURCE_READS_IN_FLIGHT = 8;

/**
 * How long a job's sources, once read, serve its reconciles: long enough that the job costs at most one GET per
 * SOURCE_READ_SPACING_MS however many sources it lists and however often it reconciles (node progress wakes a job
 * every second), and never longer than the resync, so an edit still arrives within max(SOURCE_RESYNC_MS, n s).
 */
export const sourceReadIntervalMs = (sources: number) => Math.max(0, sources) * SOURCE_READ_SPACING_MS;

/**
 * The job's listed pull secrets from its namespace, by name, each read once; a missing one is absent from the map.
 * Any other error is thrown (the reconcile retries): treating an unreadable source as missing would release its copy
 * on a guess.
 */
export async function readSources(rest: Pick<KubeRest, 'find'>, job: ImagePullJob): Promise<Map<string, V1Secret>> {
  const out = new Map<string, V1Secret>();
  const namespace = job.metadata?.namespace ?? '';
  await forEachLimit([...new Set(job.spec?.pullSecrets ?? [])], SOURCE_READS_IN_FLIGHT, async (name) => {
    const s = await rest.find<V1Secret>(resources.secrets, { namespace, name });
    if (s) out.set(name, s);
  });
  return out;
}

/**
 * readSources behind a per-job memo (keyed by job key, valid for the job's UID: pullSecrets are immutable) that
 * serves reconciles within sourceReadIntervalMs of the last read. `forget` when the job is gone or finished.
 */
export function sourceReader(rest: Pick<KubeRest, 'find'>, now: () => number) {
  const memo = new Map<string, { uid: string; at: number; sources: Map<string, V1Secret> }>();
  return {
    async read(key: string, job: ImagePullJob): Promise<Map<string, V1Secret>> {
      const uid = job.metadata?.uid ?? '';
      const m = memo.get(key);
      if (m && m.uid === uid && now() - m.at < sourceReadIntervalMs(new Set(job.spec?.pullSecrets ?? []).size)) return m.sources;
      const sources = await readSources(rest, job);
      memo.set(key, { uid, at: now(), sources });
      return sources;
    },
    forget(key: string): void {
      memo.delete(key);
    },
  };
}

/** Whether the job copies Secrets from its own namespace and so must look at them again now and then. */
export function copiesSources(job: ImagePullJob | undefined, daemonNamespace: string): boolean {
  return !!job && isActiveJob(job) && (job.spec?.pullSecrets?.length ?? 0) > 0 && job.metadata?.namespace !== daemonNamespace;
}

/** The reconcile's result, brought forward to the source resync for a job that copies sources. */
export function withSourceResync(result: Result | void, job: ImagePullJob | undefined, daemonNamespace: string): Result | void {
  if (!copiesSources(job, daemonNamespace)) return result;
  const resync = Math.max(SOURCE_RESYNC_MS, sourceReadIntervalMs(new Set(job?.spec?.pullSecrets ?? []).size));
  const after = result?.requeueAfterMs;
  return { requeueAfterMs: after === undefined ? resync : Math.min(after, resync) };
}
