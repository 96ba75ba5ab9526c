// Writes what predownload.ts decides: the CloneSet's pull-secret copies and NodeImage tags (controller/prepull/, the
// SidecarSet pre-pull's writes), and a look again while pulls are in flight so the next nodes get theirs.
import { formatTimestamp } from '../../shared/domain/inject/annotations.js';
import { ensurePrePullSecrets, releasePrePullSecrets } from '../prepull/secrets.js';
import { ensurePrePullTags, PREPULL_PULL_POLICY } from '../prepull/tags.js';
import { requeueAfter, type PreDownloadDeps, type Round } from './context.js';
import { planPreDownload } from './predownload.js';

export type { PreDownloadDeps } from './context.js';

/** How often a CloneSet with pulls in flight looks at its nodes again. */
export const PREDOWNLOAD_POLL_MS = 5_000;

/** Releases the pull-secret copies of a CloneSet (its update is over, or it is gone). */
export const releasePreDownload = (round: Pick<Round, 'deps'>, p: PreDownloadDeps, name: string) =>
  releasePrePullSecrets({ rest: round.deps.rest, ...p.secrets }, { kind: 'CloneSet', name });

export async function syncPreDownload(round: Round, p: PreDownloadDeps): Promise<void> {
  const { cs, deps } = round;
  const name = cs.metadata?.name ?? '';
  const plan = planPreDownload({ cs, current: round.revisions.current, update: round.revisions.update, strategy: round.strategy, pods: round.pods, nodeImage: (n) => p.nodeImages.get(n) });
  if (plan.kind === 'none') {
    await releasePreDownload(round, p, name);
    return;
  }
  if (plan.kind === 'wait') return;
  if (plan.tags.length > 0) {
    const owner = { kind: 'CloneSet' as const, name, uid: cs.metadata?.uid ?? '' };
    const { refs, missing } = plan.pullSecrets.length
      ? await ensurePrePullSecrets({ rest: deps.rest, ...p.secrets }, owner, new Map([[cs.metadata?.namespace ?? '', plan.pullSecrets]]))
      : { refs: [], missing: [] };
    if (missing.length) deps.log.warn({ cloneSet: round.key, secrets: missing }, 'pull secrets not found; pre-downloading without them');
    const written = await ensurePrePullTags(deps.rest, p.nodeImages, {
      owner: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name, uid: owner.uid }, tags: plan.tags, secrets: refs,
      now: formatTimestamp(new Date(round.nowMs)), pullPolicy: { ...PREPULL_PULL_POLICY, timeoutSeconds: plan.timeoutSeconds },
    });
    if (written > 0) deps.log.info({ cloneSet: round.key, nodeImages: written, images: [...new Set(plan.tags.map((t) => `${t.image.name}:${t.image.tag}`))] }, 'pre-downloading images for the in-place update');
  }
  if (plan.inFlight + plan.tags.length > 0) requeueAfter(round, PREDOWNLOAD_POLL_MS);
}
