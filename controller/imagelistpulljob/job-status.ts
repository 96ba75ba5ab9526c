// The ImageListPullJob's status from its children (spec/openkruise-v1.9.md §6 step 5).
import type { FailedImageStatus, ImageListPullJob, ImageListPullJobStatus } from '../../shared/api/image-list-pull-job.js';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';

export const failedImageMessage = (child: string) => `Please check for details which nodes failed by 'kubectl get ImagePullJob ${child}'.`;

/**
 * Over the current children that have started: `active` counts children pulling, `completed` children whose every
 * node finished, `succeeded` children whose every node succeeded. A child matching no node counts as completed (its
 * desired is 0). The job completes (type other than Never) when every image's child completed.
 */
export function computeStatus(job: ImageListPullJob, kept: ReadonlyMap<string, ImagePullJob>, nowTime: string): ImageListPullJobStatus {
  let active = 0;
  let completed = 0;
  let succeeded = 0;
  const failed: FailedImageStatus[] = [];
  for (const [image, child] of kept) {
    const st = child.status;
    if (!st?.startTime) continue;
    const desired = st.desired ?? 0;
    if ((st.active ?? 0) > 0) active++;
    if (desired === (st.failed ?? 0) + (st.succeeded ?? 0)) completed++;
    if (desired === (st.succeeded ?? 0)) succeeded++;
    if ((st.failed ?? 0) > 0) failed.push({ imagePullJob: child.metadata?.name, name: image, message: failedImageMessage(child.metadata?.name ?? '') });
  }
  const desired = job.spec?.images?.length ?? 0;
  const status: ImageListPullJobStatus = {
    startTime: job.status?.startTime ?? nowTime,
    desired, active, completed, succeeded,
    ...(failed.length ? { failedImageStatuses: failed } : {}),
  };
  if (job.spec?.completionPolicy?.type !== 'Never' && completed === desired) status.completionTime = nowTime;
  return status;
}
