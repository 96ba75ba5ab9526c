// The manager's one PUB budget spender (shared/domain/pub/spend.ts): the PUB controller's status writes and
// CloneSet's pre-update check share its per-PUB lock and its remembered copies, as upstream's controllers share
// GlobalKeyedMutex and GlobalCache. One per REST client, made on first use.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { realClock, sleep } from '../../shared/clock.js';
import { pubSpender, type PubSpender } from '../../shared/domain/pub/spend.js';
import type { Cache } from '../../shared/kube/informer.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import type { ControllerDeps } from '../types.js';

export type PubObj = PodUnavailableBudget & KubernetesObject;

const spenders = new WeakMap<KubeRest, { spender: PubSpender; pubs: Cache<PubObj> }>();

const messageOf = (err: unknown): string => {
  const body = (err as { body?: unknown }).body;
  try {
    const m = (typeof body === 'string' ? JSON.parse(body) : body) as { message?: unknown } | undefined;
    if (typeof m?.message === 'string') return m.message;
  } catch { /* not JSON */ }
  return err instanceof Error ? err.message : String(err);
};

/** The spender and the PUB cache of this manager (`deps.rest` identifies it). */
export function pubBudget(deps: Pick<ControllerDeps, 'rest' | 'informers' | 'clock'>): { spender: PubSpender; pubs: Cache<PubObj> } {
  const hit = spenders.get(deps.rest);
  if (hit) return hit;
  const pubs = deps.informers.cache<PubObj>(resources.podUnavailableBudgets);
  const clock = deps.clock ?? realClock;
  const spender = pubSpender({
    store: {
      cached: (namespace, name) => pubs.get(`${namespace}/${name}`),
      get: (namespace, name) => deps.rest.find<PubObj>(resources.podUnavailableBudgets, { namespace, name }),
      updateStatus: (pub) => deps.rest.replace(resources.podUnavailableBudgets, withTypeMeta(resources.podUnavailableBudgets, pub as PubObj), { subresource: 'status' }),
    },
    now: () => clock.now(),
    sleep: (ms) => sleep(clock, ms),
    isConflict, isNotFound, message: messageOf,
  });
  const out = { spender, pubs };
  spenders.set(deps.rest, out);
  return out;
}
