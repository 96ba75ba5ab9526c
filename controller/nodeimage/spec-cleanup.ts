// NodeImage spec housekeeping done by the manager (spec/daemon-and-controllers.md §2.3 step 4): labels copied from
// the Node, tags whose owning ImagePullJobs are all gone dropped, finished tags dropped after
// ttlSecondsAfterFinished, pull-secret refs to copies that no longer exist dropped. Pure: existence of jobs and
// secrets is gathered by the caller.
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ImageSpec, ImageTagSpec, NodeImage, NodeImageSpec, ReferenceObject } from '../../shared/api/node-image.js';
import { ImagePullJobSecretBatchMode } from '../../shared/api/image-pull-job.js';
import { KRUISE_GROUP } from '../../shared/api/meta.js';
import { parseMetaTime } from '../../shared/kube/meta-time.js';

/** ObjectReference to an apps.kruise.io ImagePullJob (any version). */
export function isImagePullJobRef(ref: V1ObjectReference): boolean {
  return ref.kind === 'ImagePullJob' && (ref.apiVersion ?? '').split('/')[0] === KRUISE_GROUP;
}

export interface CleanupInput {
  nodeLabels: Record<string, string> | undefined;
  /** False when the referenced ImagePullJob is gone or was recreated (other uid); true when alive or unknown. */
  jobAlive(ref: V1ObjectReference): boolean;
  /** False when a pull-secret copy the daemon reads no longer exists; refs elsewhere are always kept. */
  secretExists(ref: ReferenceObject): boolean;
  /** The daemon-config namespace: only refs there are subject to secretExists. */
  daemonConfigNamespace: string;
  now: number;
}

export interface CleanupResult {
  /** Present when labels or spec must be written. */
  update?: { labels: Record<string, string>; spec: NodeImageSpec };
  /** Until the next tag reaches its TTL. */
  requeueAfterMs?: number;
}

const byTag = (a: { tag: string }, b: { tag: string }) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Completion time of the status entry for this exact tag round (same tag and version), if it finished. */
function finishedAt(ni: NodeImage, image: string, tag: ImageTagSpec): number | undefined {
  const st = ni.status?.imageStatuses?.[image]?.tags?.find((t) => t.tag === tag.tag);
  if (!st || (st.version ?? 0) !== (tag.version ?? 0)) return undefined;
  return parseMetaTime(st.completionTime);
}

export function cleanupSpec(ni: NodeImage, input: CleanupInput): CleanupResult {
  let nextTtl: number | undefined;
  const images: Record<string, ImageSpec> = {};
  for (const [name, image] of Object.entries(ni.spec?.images ?? {})) {
    const tags: ImageTagSpec[] = [];
    for (const tag of image.tags ?? []) {
      if (!tag.createdAt) continue;
      const refs = tag.ownerReferences ?? [];
      const kept = refs.filter((r) => !isImagePullJobRef(r) || input.jobAlive(r));
      if (kept.length !== refs.length && kept.length === 0) continue;
      const ttl = tag.pullPolicy?.ttlSecondsAfterFinished;
      const done = ttl != null ? finishedAt(ni, name, tag) : undefined;
      if (ttl != null && done !== undefined) {
        const left = ttl * 1000 - (input.now - done);
        if (left <= 0) continue;
        nextTtl = nextTtl === undefined ? left : Math.min(nextTtl, left);
      }
      tags.push(kept.length === refs.length ? tag : { ...tag, ownerReferences: kept });
    }
    if (tags.length === 0) continue;
    const secrets = image.pullSecrets?.filter((s) =>
      s.namespace !== input.daemonConfigNamespace || (s as { mode?: string }).mode === ImagePullJobSecretBatchMode || input.secretExists(s));
    const out: ImageSpec = { ...image, tags: tags.sort(byTag) };
    if (image.pullSecrets) out.pullSecrets = secrets;
    images[name] = out;
  }
  const spec: NodeImageSpec = { ...ni.spec };
  if (Object.keys(images).length > 0) spec.images = images; else delete spec.images;
  const labels = { ...(input.nodeLabels ?? {}) };
  const changed = !sameJson(spec.images ?? {}, ni.spec?.images ?? {}) || !sameJson(sortKeys(labels), sortKeys(ni.metadata?.labels ?? {}));
  return { ...(changed ? { update: { labels, spec } } : {}), ...(nextTtl !== undefined ? { requeueAfterMs: nextTtl } : {}) };
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
