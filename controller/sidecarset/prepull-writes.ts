// The NodeImage writes of a SidecarSet pre-pull (prepull.ts): a tag owned by the SidecarSet, put in place with the
// ImagePullJob controller's tag edit and NodeImage write (one implementation of both), so the node's daemon pulls it
// and the NodeImage controller drops it ttlSecondsAfterFinished after the pull.
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { ImageTagPullPolicy, NodeImage } from '../../shared/api/node-image.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { forEachLimit } from '../../shared/concurrency.js';
import type { FreshView } from '../../shared/kube/fresh-view.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { withJobTag } from '../imagepulljob/tag-edit.js';
import { updateNodeImage } from '../imagepulljob/writes.js';
import type { NodeTag } from './prepull.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';

/** The pull of a pre-pull tag: one retry, and the tag gone 10 minutes after it finished. */
export const PREPULL_PULL_POLICY: ImageTagPullPolicy = { timeoutSeconds: 300, backoffLimit: 1, ttlSecondsAfterFinished: 600 };

/** NodeImage writes in flight at once (a batch can span a thousand nodes). */
const WRITE_CONCURRENCY = 16;

/** Puts each tag on its node's NodeImage (nothing when already there); resolves how many NodeImages were written. */
export async function ensurePrePullTags(rest: KubeRest, view: FreshView<NodeImage>, set: SidecarSet, tags: readonly NodeTag[], now: string): Promise<number> {
  const owner: V1ObjectReference = { apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', name: set.metadata?.name ?? '', uid: set.metadata?.uid ?? '' };
  // No pull secrets: the daemon reads only copies in its own namespace, which the ImagePullJob controller makes for
  // jobs (docs/compatibility.md). A private image then waits PREPULL_WAIT_MS and goes as without pre-pull.
  const noJob = { spec: {} } as ImagePullJob;
  let written = 0;
  // One node's tags one after another (they edit the same NodeImage), nodes in parallel.
  const byNode = new Map<string, NodeTag[]>();
  for (const t of tags) byNode.set(t.node, [...(byNode.get(t.node) ?? []), t]);
  await forEachLimit([...byNode.values()], WRITE_CONCURRENCY, async (nodeTags) => {
    for (const t of nodeTags) {
      const changed = await updateNodeImage(rest, view, t.node, (ni) => withJobTag(ni, {
        image: t.image, owner, pullPolicy: PREPULL_PULL_POLICY, secrets: [], job: noJob, now, align: () => undefined,
      }));
      if (changed) written++;
    }
  });
  return written;
}
