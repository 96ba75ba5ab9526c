// NodeImage admission (spec/webhooks.md §5.3, spec/daemon-and-controllers.md §2.2). Like upstream, validation stops
// at the first problem (answered 400); images are visited in name order so that "first" is deterministic (Go map
// order is random). Gate KruiseDaemon is assumed on.
import { DefaultImagePullBackoffLimit, DefaultImagePullTimeoutSeconds, NodeImageMaxImages, type NodeImage } from '../../api/node-image.js';
import type { Violation } from '../../errors.js';

/** metav1.Time JSON: RFC3339 at second precision, UTC. */
const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const byTag = (a: { tag: string }, b: { tag: string }): number => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);

/** Returns a defaulted clone: createdAt and pull-policy defaults per tag, tags sorted in spec and status. */
export function defaultNodeImage(obj: NodeImage, now: Date): NodeImage {
  const out = structuredClone(obj);
  for (const image of Object.values(out.spec?.images ?? {})) {
    for (const tag of image.tags ?? []) {
      tag.createdAt ??= rfc3339(now);
      tag.pullPolicy ??= {};
      tag.pullPolicy.timeoutSeconds ??= DefaultImagePullTimeoutSeconds;
      tag.pullPolicy.backoffLimit ??= DefaultImagePullBackoffLimit;
    }
    image.tags?.sort(byTag);
  }
  for (const status of Object.values(out.status?.imageStatuses ?? {})) status.tags?.sort(byTag);
  return out;
}

export function validateNodeImage(obj: NodeImage): Violation[] {
  const images = obj.spec?.images ?? {};
  const names = Object.keys(images).sort();
  if (names.length > NodeImageMaxImages) {
    return [{ field: 'spec.images', type: 'Too long', detail: `spec images length ${names.length} can not be more than ${NodeImageMaxImages}` }];
  }
  for (const name of names) {
    const f = `spec.images[${name}]`;
    if (name.length === 0) return [{ field: 'spec.images', type: 'Required value', detail: 'image name can not be empty' }];
    const seen = new Set<string>();
    for (const [i, tag] of (images[name]!.tags ?? []).entries()) {
      const tf = `${f}.tags[${i}]`;
      if (!tag.tag) return [{ field: `${tf}.tag`, type: 'Required value', detail: `tag for image ${name} can not be empty` }];
      if (seen.has(tag.tag)) return [{ field: `${tf}.tag`, type: 'Duplicate value', value: tag.tag, detail: `duplicated tag ${tag.tag} for image ${name}` }];
      seen.add(tag.tag);
      const fullName = `${name}/${tag.tag}`;
      if (tag.createdAt == null) return [{ field: `${tf}.createdAt`, type: 'Required value', detail: `createAt field for ${fullName} can not be empty` }];
      if ((tag.version ?? 0) < 0) return [{ field: `${tf}.version`, type: 'Invalid value', value: tag.version, detail: `version for ${fullName} can not be less than 0` }];
      if (tag.pullPolicy == null) return [{ field: `${tf}.pullPolicy`, type: 'Required value', detail: `pullPolicy field for ${fullName} must set` }];
      if (tag.pullPolicy.ttlSecondsAfterFinished == null) {
        return [{ field: `${tf}.pullPolicy.ttlSecondsAfterFinished`, type: 'Required value', detail: `pullPolicy.ttlSecondsAfterFinished for ${fullName} must set` }];
      }
    }
  }
  return [];
}
