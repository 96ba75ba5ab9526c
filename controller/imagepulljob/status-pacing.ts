// How often an ImagePullJob's progress is written. Every NodeImage status the daemons write queues the job, and each
// reconcile then sees a few more pulls finished: writing each time (as upstream does) costs about one status PUT per
// node on a large job. Progress-only changes are written at most once per interval instead; the first status, a
// changed target count and the completion are written at once. Pure.
import type { ImagePullJobStatus } from '../../shared/api/image-pull-job.js';

export const PROGRESS_WRITE_INTERVAL_MS = 1000;

/** 0: write the new status now; otherwise how long to wait before writing progress again. */
export function progressWriteDelay(prev: ImagePullJobStatus | undefined, next: ImagePullJobStatus, lastWriteAt: number | undefined, now: number,
  intervalMs = PROGRESS_WRITE_INTERVAL_MS): number {
  if (!prev?.startTime || lastWriteAt === undefined) return 0;
  if (next.completionTime || prev.completionTime || next.desired !== prev.desired) return 0;
  return Math.max(0, lastWriteAt + intervalMs - now);
}
