// How an ImagePullJob changes one NodeImage's spec (spec/daemon-and-controllers.md §3.2 step 8): add its tag (or
// join a tag another job owns, bumping the version for a new pull round), add its pull-secret refs, align an owned
// tag with an edited job, or withdraw from a NodeImage it no longer targets. Pure; returns undefined for "no change".
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { ImageSpec, ImageTagPullPolicy, ImageTagSpec, NodeImageSpec, NodeImage, ReferenceObject } from '../../shared/api/node-image.js';

export interface JobTag {
  image: { name: string; tag: string };
  owner: V1ObjectReference;
  /** pullPolicy for a tag this job creates. */
  pullPolicy: ImageTagPullPolicy;
  secrets: readonly ReferenceObject[];
  job: ImagePullJob;
  /** metav1.Time for createdAt. */
  now: string;
  /** The tag's policy brought in line with the job, or undefined when it matches (see tag-policy alignTag). */
  align(tag: ImageTagSpec): { pullPolicy: ImageTagPullPolicy; imagePullPolicy: string | undefined } | undefined;
}

const byTag = (a: { tag: string }, b: { tag: string }) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);
const hasSecret = (list: readonly ReferenceObject[] | undefined, s: ReferenceObject) => !!list?.some((h) => h.namespace === s.namespace && h.name === s.name);

/** The NodeImage spec with this job's tag in place, or undefined when it already is. */
export function withJobTag(ni: NodeImage, t: JobTag): NodeImageSpec | undefined {
  const images = { ...ni.spec?.images };
  const before = images[t.image.name];
  const image: ImageSpec = before ? { ...before, tags: [...(before.tags ?? [])] } : { tags: [] };
  const missing = t.secrets.filter((s) => !hasSecret(image.pullSecrets, s));
  const i = image.tags.findIndex((x) => x.tag === t.image.tag);
  const existing = i >= 0 ? image.tags[i]! : undefined;
  const ownIndex = existing?.ownerReferences?.findIndex((r) => r.uid === t.owner.uid) ?? -1;

  if (existing && ownIndex >= 0) {
    // The first owner's policy governs a shared tag (spec §9 note 8); only that job aligns it.
    const aligned = ownIndex === 0 ? t.align(existing) : undefined;
    if (!missing.length && !aligned) return undefined;
    if (aligned) {
      const tag: ImageTagSpec = { ...existing, pullPolicy: aligned.pullPolicy };
      if (aligned.imagePullPolicy) tag.imagePullPolicy = aligned.imagePullPolicy; else delete tag.imagePullPolicy;
      image.tags[i] = tag;
    }
  } else {
    image.sandboxConfig = t.job.spec?.sandboxConfig;
    if (!image.sandboxConfig) delete image.sandboxConfig;
    const imagePullPolicy = t.job.spec?.imagePullPolicy;
    if (existing) {
      // Joining a tag others own starts a new pull round; their pullPolicy (and TTL) stays.
      const tag: ImageTagSpec = { ...existing, version: (existing.version ?? 0) + 1, ownerReferences: [...(existing.ownerReferences ?? []), t.owner], createdAt: t.now };
      if (imagePullPolicy) tag.imagePullPolicy = imagePullPolicy; else delete tag.imagePullPolicy;
      image.tags[i] = tag;
    } else {
      const last = ni.status?.imageStatuses?.[t.image.name]?.tags?.find((x) => x.tag === t.image.tag)?.version;
      image.tags.push({
        tag: t.image.tag, version: last === undefined ? 0 : last + 1, pullPolicy: t.pullPolicy, ownerReferences: [t.owner], createdAt: t.now,
        ...(imagePullPolicy ? { imagePullPolicy } : {}),
      });
    }
  }
  if (missing.length) image.pullSecrets = [...(image.pullSecrets ?? []), ...missing];
  image.tags.sort(byTag);
  images[t.image.name] = image;
  return { ...ni.spec, images };
}

/**
 * The NodeImage spec without this job's ownership of any tag except `keep` (the job's current image on a node it
 * still targets), or undefined when there is nothing to withdraw. A tag left without owners goes, as do images left
 * without tags; so a selector or image edit moves the job's tags instead of leaving them behind.
 */
export function withoutJobTags(ni: NodeImage, uid: string, keep?: { name: string; tag: string }): NodeImageSpec | undefined {
  let changed = false;
  const images: Record<string, ImageSpec> = {};
  for (const [name, spec] of Object.entries(ni.spec?.images ?? {})) {
    const tags: ImageTagSpec[] = [];
    for (const tag of spec.tags ?? []) {
      const kept = keep && keep.name === name && keep.tag === tag.tag;
      if (kept || !tag.ownerReferences?.some((r) => r.uid === uid)) { tags.push(tag); continue; }
      changed = true;
      const owners = tag.ownerReferences.filter((r) => r.uid !== uid);
      if (owners.length) tags.push({ ...tag, ownerReferences: owners });
    }
    if (tags.length) images[name] = tags.length === spec.tags?.length && tags.every((t, j) => t === spec.tags[j]) ? spec : { ...spec, tags };
  }
  if (!changed) return undefined;
  const out: NodeImageSpec = { ...ni.spec, images };
  if (!Object.keys(images).length) delete out.images;
  return out;
}
