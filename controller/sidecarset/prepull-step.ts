// The pre-pull step of a SidecarSet rollout (prepull.ts): which pods of the batch go now, the NodeImage tags and the
// pull-secret copies that get the new images onto their nodes first, and the copies' release once the rollout is over.
import type { Logger } from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { formatTimestamp } from '../../shared/domain/inject/annotations.js';
import { ensurePrePullSecrets, releasePrePullSecrets } from '../prepull/secrets.js';
import { ensurePrePullTags } from '../prepull/tags.js';
import { setHash } from './pod-state.js';
import { planPrePull, prePullEnabled, PREPULL_WAIT_MS } from './prepull.js';
import type { ReconcileDeps } from './reconcile-deps.js';

const asPod = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata });

export function prePullStep(deps: ReconcileDeps) {
  const { rest, clock } = deps;
  /**
   * The SidecarSet's imagePullSecrets, copied for the daemon from each namespace of `pods` (upstream injects them
   * into the pods, so they name Secrets of the pod's namespace).
   */
  const prePullSecrets = async (set: SidecarSet, pods: readonly Pod[], log: Logger) => {
    const names = (set.spec?.imagePullSecrets ?? []).map((s) => s.name ?? '').filter(Boolean);
    if (!deps.pullSecrets || names.length === 0) return [];
    const byNamespace = new Map(pods.map((p) => [p.metadata?.namespace ?? '', names] as const));
    const owner = { kind: 'SidecarSet' as const, name: set.metadata?.name ?? '', uid: set.metadata?.uid ?? '' };
    const { refs, missing } = await ensurePrePullSecrets({ rest, ...deps.pullSecrets }, owner, byNamespace);
    if (missing.length) log.warn({ secrets: missing }, 'pull secrets not found; pre-pulling without them');
    return refs;
  };
  /** The rollout is over (or pre-pull is off, or the SidecarSet is gone): the pre-pull's secret copies go. */
  const releaseSecrets = async (name: string) => {
    if (deps.pullSecrets) await releasePrePullSecrets({ rest, ...deps.pullSecrets }, { kind: 'SidecarSet', name });
  };

  /**
   * The pods of the batch that go now: with pre-pull on, those whose nodes report the new images pulled (or that
   * waited PREPULL_WAIT_MS); the nodes of the batch and of the next one get their tags meanwhile.
   */
  const prePulled = async (set: SidecarSet, batch: Pod[], upcoming: Pod[], log: Logger): Promise<{ go: Pod[]; holding: boolean }> => {
    const view = deps.nodeImages;
    if (!view || !prePullEnabled(set)) {
      await releaseSecrets(set.metadata?.name ?? '');
      return { go: batch, holding: false };
    }
    const name = set.metadata?.name ?? '';
    const hash = setHash(set);
    const t = clock.now();
    const plan = planPrePull(set, batch, upcoming, { nodeImage: (n) => view.get(n), waitingSince: (k) => deps.prePullWaits.since(name, hash, k, t), now: t });
    if (plan.tags.length > 0) {
      const secrets = await prePullSecrets(set, [...batch, ...upcoming], log);
      const owner = { apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', name, uid: set.metadata?.uid ?? '' };
      const written = await ensurePrePullTags(rest, view, { owner, tags: plan.tags, secrets, now: formatTimestamp(new Date(clock.now())) });
      if (written > 0) log.info({ nodeImages: written, tags: plan.tags.length, pullSecrets: secrets.length }, 'pre-pulling new sidecar images');
    }
    for (const pod of plan.timedOut) {
      deps.events.event(asPod(pod), 'Normal', 'SidecarPrePullTimedOut',
        `node ${pod.spec?.nodeName} did not report the new sidecar image(s) of SidecarSet ${name} pulled within ${PREPULL_WAIT_MS / 1000} s; updating without waiting further`);
    }
    const go = new Set([...plan.ready, ...plan.timedOut]);
    return { go: batch.filter((p) => go.has(p)), holding: plan.waiting.length > 0 };
  };

  return { prePulled, releaseSecrets };
}
