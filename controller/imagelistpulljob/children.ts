// The ImageListPullJob's children (spec/openkruise-v1.9.md §6 steps 1, 4 and 6), as pure functions: the template
// hash, which child ImagePullJobs are current, which images need a new child and which children go, and the child
// a new image gets.
import type { ImageListPullJob } from '../../shared/api/image-list-pull-job.js';
import type { ImagePullJob, ImagePullJobTemplate } from '../../shared/api/image-pull-job.js';
import { KRUISE_API_VERSION_V1BETA1 } from '../../shared/api/meta.js';
import { defaultImagePullJob } from '../../shared/domain/validation/image-pull-job.js';
import { deepEqual } from '../../shared/domain/validation/sidecarset-conflicts.js';
import { safeEncode } from '../../shared/domain/sidecarset-hash.js';
import { fnv1Hash32 } from '../../shared/domain/sidecarset-revision.js';
import { controllerRef } from '../../shared/kube/keys.js';

/** The label holding the template hash, on the ImageListPullJob and on each child. */
export const TemplateHashLabel = 'controller-revision-hash';

/** The template part of an ImageListPullJob's spec (everything but `images`). */
export function templateOf(job: ImageListPullJob): ImagePullJobTemplate {
  const { images: _images, ...template } = job.spec ?? { images: [], completionPolicy: {} };
  return template;
}

/** JSON with every object's keys sorted: the same template always gives the same text. */
function sortedJson(v: unknown): string {
  return JSON.stringify(v ?? null, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : val);
}

/**
 * A stable hash of the template, safe-encoded like upstream's. Upstream hashes Go's spew dump of the template, which
 * cannot be reproduced outside Go; the hash is only ever compared with itself (and a child whose hash differs but
 * whose template is the same counts as current, templateCurrent).
 */
export function templateHash(job: ImageListPullJob): string {
  return safeEncode(String(fnv1Hash32(Buffer.from(sortedJson(templateOf(job)), 'utf8'))));
}

/** The template as the ImagePullJob webhook leaves it (its defaults), so a child and a template compare alike. */
const defaulted = (template: ImagePullJobTemplate) => defaultImagePullJob({ spec: { image: '', ...template } }, 'UPDATE').spec;

/**
 * A child is current when its hash label is this template's, or, whatever its label says, its spec is the template
 * (so children written by OpenKruise, whose hash kruise-ts cannot compute, are kept rather than recreated).
 */
export function isCurrent(child: ImagePullJob, template: ImagePullJobTemplate, hash: string): boolean {
  if (child.metadata?.labels?.[TemplateHashLabel] === hash) return true;
  const { image: _image, ...childTemplate } = child.spec ?? { image: '', completionPolicy: {} };
  return deepEqual(defaulted(childTemplate), defaulted(template));
}

/** The children this ImageListPullJob controls (ownerReference UID), not being deleted. */
export function ownedChildren(job: ImageListPullJob, jobs: readonly ImagePullJob[]): ImagePullJob[] {
  const uid = job.metadata?.uid;
  return jobs.filter((j) => !j.metadata?.deletionTimestamp && j.metadata?.namespace === job.metadata?.namespace
    && (j.metadata?.ownerReferences ?? []).some((r) => r.uid === uid && r.controller === true));
}

export interface ChildPlan {
  /** By image, in spec order: the child counted in the status (current, of a listed image). */
  kept: Map<string, ImagePullJob>;
  /** Images of spec.images without a current child, in spec order. */
  create: string[];
  /** Outdated children, children of removed images, and second children of one image. */
  remove: ImagePullJob[];
}

export function planChildren(job: ImageListPullJob, children: readonly ImagePullJob[], hash: string): ChildPlan {
  const template = templateOf(job);
  const images = new Set(job.spec?.images ?? []);
  const kept = new Map<string, ImagePullJob>();
  const remove: ImagePullJob[] = [];
  // Oldest first, so of two children of one image the older (more progressed) one stays.
  const byAge = [...children].sort((a, b) => String(a.metadata?.creationTimestamp ?? '').localeCompare(String(b.metadata?.creationTimestamp ?? ''))
    || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  for (const child of byAge) {
    const image = child.spec?.image ?? '';
    if (images.has(image) && !kept.has(image) && isCurrent(child, template, hash)) kept.set(image, child);
    else remove.push(child);
  }
  const ordered = new Map([...images].filter((i) => kept.has(i)).map((i) => [i, kept.get(i)!]));
  return { kept: ordered, create: [...images].filter((i) => !kept.has(i)), remove };
}

/** The child ImagePullJob for one image (upstream's newImagePullJob). */
export function newChild(job: ImageListPullJob, image: string, hash: string): ImagePullJob {
  return {
    apiVersion: KRUISE_API_VERSION_V1BETA1, kind: 'ImagePullJob',
    metadata: {
      generateName: `${job.metadata?.name ?? ''}-`,
      namespace: job.metadata?.namespace,
      labels: { [TemplateHashLabel]: hash },
      annotations: {},
      ownerReferences: [controllerRef(job, { apiVersion: KRUISE_API_VERSION_V1BETA1, kind: 'ImageListPullJob' })],
    },
    spec: { ...structuredClone(templateOf(job)), image },
  };
}
