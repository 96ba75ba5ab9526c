// CloneSet image pre-download (upstream's PreDownloadImageForInPlaceUpdate gate, spec/cloneset.md §3.2 step 10):
// while the revisions differ, the new images of an in-place update are pulled ahead on the nodes of the pods still at
// an older revision, `apps.kruise.io/image-predownload-parallelism` nodes at a time. Upstream creates ImagePullJobs;
// kruise-ts puts NodeImage tags owned by the CloneSet through the SidecarSet pre-pull's writes and pull-secret copies
// (controller/prepull/, one implementation; docs/compatibility.md). As upstream, the update does not wait for the
// pulls. Pure: the caller gathers NodeImages and writes what this decides.
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { inPlaceUpdateSpec } from '../../shared/domain/cloneset/inplace.js';
import { matchesRevision } from '../../shared/domain/cloneset/pod-predicates.js';
import { revisionTemplate, type CloneSetRevision } from '../../shared/domain/cloneset/revision.js';
import type { ResolvedStrategy } from '../../shared/domain/cloneset/strategy-values.js';
import { ImageReferenceError, normalizeImageRef } from '../../shared/domain/image-ref.js';
import { legacyScaledValue } from '../../shared/domain/int-or-percent.js';
import { isFinished, isPulled, type ImageName, type NodeTag } from '../prepull/plan.js';

export const PreDownloadParallelismAnnotation = 'apps.kruise.io/image-predownload-parallelism';
export const PreDownloadTimeoutAnnotation = 'apps.kruise.io/image-predownload-timeout-seconds';
export const PreDownloadMinUpdatedReadyPodsAnnotation = 'apps.kruise.io/image-predownload-min-updated-ready-pods';
/** Upstream pre-downloads for more than this many replicas only. */
export const MIN_REPLICAS_TO_PREDOWNLOAD = 3;
const DEFAULT_PARALLELISM = 1;
const DEFAULT_TIMEOUT_SECONDS = 600;

export type PreDownload =
  /** Nothing to pull for this update (revisions equal, or upstream would ignore it): pull-secret copies go. */
  | { kind: 'none'; reason: string }
  /** Not yet: fewer updated ready pods than min-updated-ready-pods. */
  | { kind: 'wait'; reason: string }
  | { kind: 'pull'; tags: NodeTag[]; inFlight: number; timeoutSeconds: number; pullSecrets: string[] };

export interface PreDownloadInput {
  cs: CloneSet;
  current: CloneSetRevision;
  update: CloneSetRevision;
  strategy: ResolvedStrategy;
  pods: readonly Pod[];
  nodeImage: (node: string) => NodeImage | undefined;
}

const positiveInt = (v: string | undefined, def: number) => {
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n > 0 ? n : def;
};

/** The images of containers the update revision adds or changes (upstream's diffImagesBetweenRevisions), normalised. */
export function changedImages(current: CloneSetRevision, update: CloneSetRevision): ImageName[] {
  const before = new Map<string, string>();
  for (const c of revisionTemplate(current)?.spec?.containers ?? []) before.set(c.name, c.image);
  const out = new Map<string, ImageName>();
  for (const c of revisionTemplate(update)?.spec?.containers ?? []) {
    if (!c.image || before.get(c.name) === c.image) continue;
    try {
      const ref = normalizeImageRef(c.image);
      out.set(`${ref.name}:${ref.tag}`, ref);
    } catch (err) {
      if (!(err instanceof ImageReferenceError)) throw err;
    }
  }
  return [...out.values()];
}

const ownTag = (ni: NodeImage, image: ImageName, uid: string) =>
  ni.spec?.images?.[image.name]?.tags?.some((t) => t.tag === image.tag && t.ownerReferences?.some((r) => r.uid === uid)) ?? false;

export function planPreDownload(i: PreDownloadInput): PreDownload {
  const { cs, current, update, strategy } = i;
  const rev = update.metadata.name;
  if (current.metadata.name === rev) return { kind: 'none', reason: 'revisions are equal' };
  if (cs.spec?.updateStrategy?.type === 'ReCreate') return { kind: 'none', reason: 'update type is ReCreate' };
  if (strategy.replicas <= MIN_REPLICAS_TO_PREDOWNLOAD) return { kind: 'none', reason: `replicas ${strategy.replicas} <= ${MIN_REPLICAS_TO_PREDOWNLOAD}` };
  if (strategy.partition === 0 && strategy.maxUnavailable >= strategy.replicas) return { kind: 'none', reason: 'all pods update in one batch' };
  const oldT = revisionTemplate(current);
  const newT = revisionTemplate(update);
  if (!oldT || !newT || !inPlaceUpdateSpec(oldT, newT, rev)) return { kind: 'none', reason: `${current.metadata.name} -> ${rev} can not update in-place` };

  const minRaw = cs.metadata?.annotations?.[PreDownloadMinUpdatedReadyPodsAnnotation];
  const min = minRaw === undefined ? 0 : legacyScaledValue(/^\d+$/.test(minRaw) ? Number(minRaw) : minRaw, strategy.replicas, true);
  const updatedReady = cs.status?.updateRevision === rev ? (cs.status?.updatedReadyReplicas ?? 0) : 0;
  if (updatedReady < min) return { kind: 'wait', reason: `${updatedReady} updated ready pods, ${min} wanted first` };

  const images = changedImages(current, update);
  const uid = cs.metadata?.uid ?? '';
  const nodes = [...new Set(i.pods.filter((p) => !matchesRevision(p, rev) && p.spec?.nodeName).map((p) => p.spec!.nodeName!))].sort();
  let inFlight = 0;
  const candidates: { node: string; missing: ImageName[] }[] = [];
  for (const node of nodes) {
    const ni = i.nodeImage(node);
    if (!ni) continue;
    const missing = images.filter((img) => !isPulled(ni, img));
    if (missing.some((img) => ownTag(ni, img, uid) && !isFinished(ni, img))) inFlight++;
    // A pull of ours that ended (even failed) is not started again; the in-place update pulls then.
    const fresh = missing.filter((img) => !ownTag(ni, img, uid));
    if (fresh.length) candidates.push({ node, missing: fresh });
  }
  const parallelism = positiveInt(cs.metadata?.annotations?.[PreDownloadParallelismAnnotation], DEFAULT_PARALLELISM);
  const tags = candidates.slice(0, Math.max(0, parallelism - inFlight)).flatMap((c) => c.missing.map((image) => ({ node: c.node, image })));
  return {
    kind: 'pull', tags, inFlight,
    timeoutSeconds: positiveInt(cs.metadata?.annotations?.[PreDownloadTimeoutAnnotation], DEFAULT_TIMEOUT_SECONDS),
    pullSecrets: (cs.spec?.template?.spec?.imagePullSecrets ?? []).map((s) => s.name ?? '').filter(Boolean),
  };
}
