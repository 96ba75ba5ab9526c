// Pre-pull of new sidecar images before an in-place restart (kruise-ts extension, docs/compatibility.md; upstream's
// PreDownloadImageForInPlaceUpdate idea for SidecarSets, openkruise/kruise#1221). Opt-in per SidecarSet. The
// controller puts a tag owned by the SidecarSet on the NodeImage of each node of the current and the next batch; the
// node's daemon pulls it (with the SidecarSet's imagePullSecrets, controller/prepull/secrets.ts); a pod of the batch is
// updated once its node reports the image pulled, or once it waited PREPULL_WAIT_MS (then as today, with an event).
// The plan is the shared one (controller/prepull/plan.ts); this file says which images a SidecarSet brings.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { ImageReferenceError, normalizeImageRef } from '../../shared/domain/image-ref.js';
import { inPlaceNatives } from './native-sidecars.js';
import { hotUpgradeTarget } from './pod-upgrade.js';
import { isHotUpgrade } from '../../shared/domain/inject/hot-upgrade.js';
import { planPrePull as planShared, type PrePullInputs as SharedInputs, type PrePullPlan } from '../prepull/plan.js';

/** SidecarSet annotation: `"true"` turns pre-pull on (default off). */
export const PrePullAnnotation = 'kruise-ts.io/sidecarset-prepull';
/** How long a pod of the batch waits for its node to report the image pulled before it is updated anyway. */
export const PREPULL_WAIT_MS = 120_000;

export const prePullEnabled = (set: SidecarSet) => set.metadata?.annotations?.[PrePullAnnotation] === 'true';

export type { NodeTag } from '../prepull/plan.js';

/** The sidecar-side inputs of the shared plan (controller/prepull/plan.ts); the images come from the SidecarSet. */
export type PrePullInputs = Omit<SharedInputs, 'imagesFor' | 'waitMs'>;

/** The images the update gives the pod's sidecars that its containers do not run yet, normalised (name, tag). */
export function newImages(set: SidecarSet, pod: Pod): { name: string; tag: string }[] {
  const out = new Map<string, { name: string; tag: string }>();
  // Containers (hot-upgrade ones by the slot to receive the image) and, kruise-ts, native sidecars updated in place.
  for (const c of [...(set.spec?.containers ?? []), ...inPlaceNatives(set)]) {
    const target = isHotUpgrade(c) ? hotUpgradeTarget(set, c, pod).target : c.name;
    const current = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === target)?.image;
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

/** What to pull where, and which pods of `batch` go now; `upcoming` (the next batch) is only pulled for. */
export function planPrePull(set: SidecarSet, batch: readonly Pod[], upcoming: readonly Pod[], inputs: PrePullInputs): PrePullPlan {
  return planShared(batch, upcoming, { ...inputs, imagesFor: (pod) => newImages(set, pod), waitMs: PREPULL_WAIT_MS });
}
