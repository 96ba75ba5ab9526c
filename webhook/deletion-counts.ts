// The counts behind a `Cascading` deletion protection (spec/availability-guards.md §8): active pods and Bound PVCs of
// a namespace, CustomResources of a CRD. Upstream reads pods and PVCs from the manager's cache; the webhook has no
// pod cache (it would hold every pod of the cluster), so each count is a paged LIST on the main thread, bounded in
// pages and time: a namespace deletion must not become an unbounded scan under the webhook's identity.
import type { KubernetesObject } from '@kubernetes/client-node';
import { resources, type Resource } from '../shared/kube/resources.js';
import type { KubeRest } from '../shared/kube/rest.js';

export type DeletionCountQuery =
  | { what: 'active-pods'; namespace: string }
  | { what: 'bound-pvcs'; namespace: string }
  | { what: 'active-crs'; group: string; version: string; plural: string };

/** Objects per page. */
export const COUNT_PAGE_SIZE = 500;
/** Pages read at most: past 20 × 500 objects the count so far is the answer (it only decides "more than 0"). */
export const COUNT_MAX_PAGES = 20;
/** The whole count gives up after this (the apiserver gives up on the webhook at its timeoutSeconds). */
export const COUNT_DEADLINE_MS = 5_000;

type Obj = KubernetesObject & { status?: { phase?: string } };

const counted: Record<DeletionCountQuery['what'], (o: Obj) => boolean> = {
  'active-pods': (o) => !o.metadata?.deletionTimestamp && o.status?.phase !== 'Succeeded' && o.status?.phase !== 'Failed',
  'bound-pvcs': (o) => !o.metadata?.deletionTimestamp && o.status?.phase === 'Bound',
  'active-crs': (o) => !o.metadata?.deletionTimestamp,
};

function target(q: DeletionCountQuery): { r: Resource; namespace?: string; fieldSelector?: string } {
  switch (q.what) {
    case 'active-pods': return { r: resources.pods, namespace: q.namespace, fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' };
    case 'bound-pvcs': return { r: resources.persistentVolumeClaims, namespace: q.namespace };
    // Cluster-wide: the path without a namespace lists a namespaced kind in every namespace.
    case 'active-crs': return { r: { group: q.group, version: q.version, plural: q.plural, kind: '', namespaced: false } };
  }
}

/** Counts what `q` asks for; rejects on a list error or at the deadline (the message is the apiserver's or ours). */
export function deletionCounter(rest: KubeRest, o: { deadlineMs?: number; maxPages?: number } = {}) {
  return async (q: DeletionCountQuery): Promise<number> => {
    const { r, namespace, fieldSelector } = target(q);
    const deadline = Date.now() + (o.deadlineMs ?? COUNT_DEADLINE_MS);
    let n = 0;
    let cont: string | undefined;
    for (let page = 0; page < (o.maxPages ?? COUNT_MAX_PAGES); page++) {
      if (Date.now() > deadline) throw new Error(`counting ${q.what} did not finish within ${o.deadlineMs ?? COUNT_DEADLINE_MS} ms`);
      const list = await rest.list<Obj>(r, { ...(namespace ? { namespace } : {}), ...(fieldSelector ? { fieldSelector } : {}), limit: COUNT_PAGE_SIZE, ...(cont ? { continue: cont } : {}) });
      for (const item of list.items) if (counted[q.what](item)) n++;
      cont = (list.metadata as { continue?: string } | undefined)?.continue ?? list.metadata?._continue;
      if (!cont) return n;
    }
    if (n > 0) return n;
    throw new Error(`more than ${(o.maxPages ?? COUNT_MAX_PAGES) * COUNT_PAGE_SIZE} ${q.what === 'active-crs' ? q.plural : q.what} to look through`);
  };
}
