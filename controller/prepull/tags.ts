// The NodeImage writes of a pre-pull (plan.ts): a tag owned by the workload (SidecarSet or CloneSet), put in place
// with the ImagePullJob controller's tag edit and NodeImage write (one implementation of both), so the node's daemon
// pulls it with the listed pull secrets and the NodeImage controller drops it ttlSecondsAfterFinished after the pull.
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { ImageTagPullPolicy, NodeImage, ReferenceObject } from '../../shared/api/node-image.js';
import { forEachLimit } from '../../shared/concurrency.js';
import type { FreshView } from '../../shared/kube/fresh-view.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { withJobTag } from '../imagepulljob/tag-edit.js';
import { updateNodeImage } from '../imagepulljob/writes.js';
import type { NodeTag } from './plan.js';

/** The pull of a pre-pull tag: one retry, and the tag gone 10 minutes after it finished. */
export const PREPULL_PULL_POLICY: ImageTagPullPolicy = { timeoutSeconds: 300, backoffLimit: 1, ttlSecondsAfterFinished: 600 };

/** NodeImage writes in flight at once (a batch can span a thousand nodes). */
const WRITE_CONCURRENCY = 16;

export interface TagWrite {
  owner: V1ObjectReference;
  tags: readonly NodeTag[];
  /** Pull-secret copies the daemon reads (secrets.ts); added to each tagged image. */
  secrets: readonly ReferenceObject[];
  /** metav1.Time for createdAt. */
  now: string;
  pullPolicy?: ImageTagPullPolicy;
}

/** Puts each tag on its node's NodeImage (nothing when already there); resolves how many NodeImages were written. */
export async function ensurePrePullTags(rest: KubeRest, view: FreshView<NodeImage>, w: TagWrite): Promise<number> {
  // withJobTag reads sandboxConfig and imagePullPolicy from the job: a pre-pull has neither.
  const noJob = { spec: {} } as ImagePullJob;
  let written = 0;
  // One node's tags one after another (they edit the same NodeImage), nodes in parallel.
  const byNode = new Map<string, NodeTag[]>();
  for (const t of w.tags) byNode.set(t.node, [...(byNode.get(t.node) ?? []), t]);
  await forEachLimit([...byNode.values()], WRITE_CONCURRENCY, async (nodeTags) => {
    for (const t of nodeTags) {
      const changed = await updateNodeImage(rest, view, t.node, (ni) => withJobTag(ni, {
        image: t.image, owner: w.owner, pullPolicy: w.pullPolicy ?? PREPULL_PULL_POLICY, secrets: w.secrets, job: noJob, now: w.now, align: () => undefined,
      }));
      if (changed) written++;
    }
  });
  return written;
}
