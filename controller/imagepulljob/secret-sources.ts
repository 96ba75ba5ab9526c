// The source Secrets of a job's pull-secret copies, read on demand. The controller caches Secrets of the daemon-config
// namespace only (the copies): caching every Secret of the cluster to find a few sources held all of them in the
// manager's heap (review H2). A source is read with a GET (the REST client's per-request timeout applies) when a job
// reconciles, and active jobs with sources come back every SOURCE_RESYNC_MS so an edited source still reaches its
// copies without a cluster-wide watch (upstream watches every Secret for that; docs/compatibility.md).
import type { V1Secret } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { Result } from '../../shared/reconcile/types.js';
import { isActiveJob } from './watch.js';

/** How long an edit of a source Secret may take to reach its copies. */
export const SOURCE_RESYNC_MS = 60_000;

/**
 * The job's listed pull secrets from its namespace, by name; a missing one is absent from the map. Any other error
 * is thrown (the reconcile retries): treating an unreadable source as missing would release its copy on a guess.
 */
export async function readSources(rest: Pick<KubeRest, 'find'>, job: ImagePullJob): Promise<Map<string, V1Secret>> {
  const out = new Map<string, V1Secret>();
  const namespace = job.metadata?.namespace ?? '';
  for (const name of new Set(job.spec?.pullSecrets ?? [])) {
    const s = await rest.find<V1Secret>(resources.secrets, { namespace, name });
    if (s) out.set(name, s);
  }
  return out;
}

/** Whether the job copies Secrets from its own namespace and so must look at them again now and then. */
export function copiesSources(job: ImagePullJob | undefined, daemonNamespace: string): boolean {
  return !!job && isActiveJob(job) && (job.spec?.pullSecrets?.length ?? 0) > 0 && job.metadata?.namespace !== daemonNamespace;
}

/** The reconcile's result, brought forward to SOURCE_RESYNC_MS for a job that copies sources. */
export function withSourceResync(result: Result | void, job: ImagePullJob | undefined, daemonNamespace: string): Result | void {
  if (!copiesSources(job, daemonNamespace)) return result;
  const after = result?.requeueAfterMs;
  return { requeueAfterMs: after === undefined ? SOURCE_RESYNC_MS : Math.min(after, SOURCE_RESYNC_MS) };
}
