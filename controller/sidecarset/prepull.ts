// Pre-pull of new sidecar images before an in-place restart (kruise-ts extension, docs/compatibility.md; upstream's
// PreDownloadImageForInPlaceUpdate idea for SidecarSets, openkruise/kruise#1221). Opt-in per SidecarSet. The
// controller puts a tag owned by the SidecarSet on the NodeImage of each node of the current and the next batch; the
// node's daemon pulls it; a pod of the batch is updated once its node reports the image pulled, or once it waited
// PREPULL_WAIT_MS (then as today, with an event). Pure: NodeImages and the waiting clock are gathered by the caller.
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { ImageReferenceError, normalizeImageRef } from '../../shared/domain/image-ref.js';
import { hotUpgradeTarget } from './pod-upgrade.js';
import { isHotUpgrade } from '../../shared/domain/inject/hot-upgrade.js';

/** SidecarSet annotation: `"true"` turns pre-pull on (default off). */
export const PrePullAnnotation = 'kruise-ts.io/sidecarset-prepull';
/** How long a pod of the batch waits for its node to report the image pulled before it is updated anyway. */
export const PREPULL_WAIT_MS = 120_000;

export const prePullEnabled = (set: SidecarSet) => set.metadata?.annotations?.[PrePullAnnotation] === 'true';

export interface NodeTag { node: string; image: { name: string; tag: string } }

export interface PrePullInputs {
  nodeImage: (node: string) => NodeImage | undefined;
  /** When `podKey` was first held back for this SidecarSet hash (the caller records it on first sight). */
  waitingSince: (podKey: string) => number;
  now: number;
}

export interface PrePullPlan {
  /** NodeImage tags to put in place (each node and image once). */
  tags: NodeTag[];
  /** Batch pods to update now: their images are on their nodes, or nothing can pull them there. */
  ready: Pod[];
  /** Batch pods updated now without the image, after PREPULL_WAIT_MS. */
  timedOut: Pod[];
  /** Batch pods held back this round. */
  waiting: Pod[];
}

const key = (pod: Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

/** The images the update gives the pod's sidecars that its containers do not run yet, normalised (name, tag). */
export function newImages(set: SidecarSet, pod: Pod): { name: string; tag: string }[] {
  const out = new Map<string, { name: string; tag: string }>();
  for (const c of set.spec?.containers ?? []) {
    const target = isHotUpgrade(c) ? hotUpgradeTarget(set, c, pod).target : c.name;
    const current = pod.spec?.containers?.find((x) => x.name === target)?.image;
    if (!c.image || current === c.image) continue;
    try {
      const ref = normalizeImageRef(c.image);
      out.set(`${ref.name}:${ref.tag}`, ref);
    } catch (err) {
      if (!(err instanceof ImageReferenceError)) throw err;
    }
  }
  return [...out.values()];
}

/** The node reports `image` pulled (any round of the tag). */
export function isPulled(ni: NodeImage, image: { name: string; tag: string }): boolean {
  return ni.status?.imageStatuses?.[image.name]?.tags?.some((t) => t.tag === image.tag && t.phase === 'Succeeded') ?? false;
}

/** What to pull where, and which pods of `batch` go now; `upcoming` (the next batch) is only pulled for. */
export function planPrePull(set: SidecarSet, batch: readonly Pod[], upcoming: readonly Pod[], inputs: PrePullInputs): PrePullPlan {
  const tags = new Map<string, NodeTag>();
  const missing = (pod: Pod) => {
    const node = pod.spec?.nodeName;
    const ni = node ? inputs.nodeImage(node) : undefined;
    // No NodeImage: no daemon on that node (or not yet), nothing to wait for.
    if (!node || !ni) return [];
    const out = newImages(set, pod).filter((image) => !isPulled(ni, image));
    for (const image of out) tags.set(`${node}\u0000${image.name}:${image.tag}`, { node, image });
    return out;
  };
  const plan: PrePullPlan = { tags: [], ready: [], timedOut: [], waiting: [] };
  for (const pod of batch) {
    if (missing(pod).length === 0) plan.ready.push(pod);
    else if (inputs.now - inputs.waitingSince(key(pod)) >= PREPULL_WAIT_MS) plan.timedOut.push(pod);
    else plan.waiting.push(pod);
  }
  for (const pod of upcoming) missing(pod);
  plan.tags = [...tags.values()];
  return plan;
}
