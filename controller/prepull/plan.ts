// Which nodes pull which images ahead of an in-place update, and which pods of a batch may go (kruise-ts extension,
// docs/compatibility.md): one implementation for the SidecarSet pre-pull and the CloneSet pre-download. A pod goes
// once its node reports every image it is about to run pulled, or once it waited `waitMs`; a node without a NodeImage
// (no daemon there) has nothing to wait for. Pure: NodeImages and the waiting clock are gathered by the caller.
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';

export interface ImageName { name: string; tag: string }
export interface NodeTag { node: string; image: ImageName }

export interface PrePullInputs {
  nodeImage: (node: string) => NodeImage | undefined;
  /** The images `pod` is about to run that it does not run yet, normalised. */
  imagesFor: (pod: Pod) => ImageName[];
  /** When `podKey` was first held back (the caller records it on first sight). */
  waitingSince: (podKey: string) => number;
  now: number;
  waitMs: number;
}

export interface PrePullPlan {
  /** NodeImage tags to put in place (each node and image once). */
  tags: NodeTag[];
  /** Batch pods to update now: their images are on their nodes, or nothing can pull them there. */
  ready: Pod[];
  /** Batch pods updated now without the image, after `waitMs`. */
  timedOut: Pod[];
  /** Batch pods held back this round. */
  waiting: Pod[];
}

export const podKey = (pod: Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

const tagStatus = (ni: NodeImage, image: ImageName) => ni.status?.imageStatuses?.[image.name]?.tags?.find((t) => t.tag === image.tag);

/** The node reports `image` pulled (any round of the tag). */
export function isPulled(ni: NodeImage, image: ImageName): boolean {
  return ni.status?.imageStatuses?.[image.name]?.tags?.some((t) => t.tag === image.tag && t.phase === 'Succeeded') ?? false;
}

/** The node's pull of `image` ended, either way (a failed pull is not retried by waiting for it). */
export function isFinished(ni: NodeImage, image: ImageName): boolean {
  const phase = tagStatus(ni, image)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** The images `pod` still needs on its node, each recorded as a tag to put there; [] when nothing to wait for. */
function missingOn(pod: Pod, inputs: PrePullInputs, tags: Map<string, NodeTag>): ImageName[] {
  const node = pod.spec?.nodeName;
  const ni = node ? inputs.nodeImage(node) : undefined;
  if (!node || !ni) return [];
  const out = inputs.imagesFor(pod).filter((image) => !isPulled(ni, image));
  for (const image of out) tags.set(`${node}\u0000${image.name}:${image.tag}`, { node, image });
  return out;
}

/** What to pull where, and which pods of `batch` go now; `upcoming` (the next batch) is only pulled for. */
export function planPrePull(batch: readonly Pod[], upcoming: readonly Pod[], inputs: PrePullInputs): PrePullPlan {
  const tags = new Map<string, NodeTag>();
  const plan: PrePullPlan = { tags: [], ready: [], timedOut: [], waiting: [] };
  for (const pod of batch) {
    if (missingOn(pod, inputs, tags).length === 0) plan.ready.push(pod);
    else if (inputs.now - inputs.waitingSince(podKey(pod)) >= inputs.waitMs) plan.timedOut.push(pod);
    else plan.waiting.push(pod);
  }
  for (const pod of upcoming) missingOn(pod, inputs, tags);
  plan.tags = [...tags.values()];
  return plan;
}
