// The CloneSet's ControllerRevisions (spec/cloneset.md §2.3, §3.3, §3.2 step 13): list the owned ones, find or create
// the update revision (rolling back by renumbering an older equal one, bumping collisionCount on a name clash with
// other data), pick the current one, and truncate history.
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { matchesRevision } from '../../shared/domain/cloneset/pod-predicates.js';
import {
  equalRevisionData, newRevision, nextRevisionNumber, sortRevisions, type CloneSetRevision,
} from '../../shared/domain/cloneset/revision.js';
import type { LabelMatcher } from '../../shared/domain/label-selector.js';
import type { Cache } from '../../shared/kube/informer.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';

/** Revisions in the CloneSet's namespace selected by it and controlled by it or by nobody, in history order. */
export function ownedRevisions(cs: CloneSet, revisions: Cache<CloneSetRevision>, selects: LabelMatcher): CloneSetRevision[] {
  const ns = cs.metadata?.namespace;
  const uid = cs.metadata?.uid;
  return sortRevisions(revisions.list().filter((r) => {
    if (r.metadata.namespace !== ns || !selects(r.metadata.labels ?? {})) return false;
    const owner = r.metadata.ownerReferences?.find((o) => o.controller);
    return !owner || owner.uid === uid;
  }));
}

export interface Revisions { current: CloneSetRevision; update: CloneSetRevision; collisionCount: number; all: CloneSetRevision[] }

const MAX_COLLISIONS = 16;

export async function syncRevisions(rest: KubeRest, cs: CloneSet, owned: CloneSetRevision[]): Promise<Revisions> {
  let collisionCount = cs.status?.collisionCount ?? 0;
  let all = [...owned];
  const next = nextRevisionNumber(all);
  let candidate = newRevision(cs, next, collisionCount);
  const equal = all.filter((r) => equalRevisionData(r, candidate));
  let update: CloneSetRevision | undefined;
  if (equal.length > 0 && equal[equal.length - 1] === all[all.length - 1]) {
    update = all[all.length - 1]!;
  } else if (equal.length > 0) {
    // Rollback to a template seen before: that revision becomes the newest.
    const old = equal[equal.length - 1]!;
    const patched = await rest.patch<CloneSetRevision>(resources.controllerRevisions, { namespace: old.metadata.namespace, name: old.metadata.name }, 'merge', { revision: next });
    all = sortRevisions([...all.filter((r) => r !== old), patched]);
    update = patched;
  } else {
    for (let i = 0; !update; i++) {
      try {
        update = await rest.create<CloneSetRevision>(resources.controllerRevisions, candidate as never);
        all = sortRevisions([...all, update]);
      } catch (err) {
        if (!isConflict(err) || i >= MAX_COLLISIONS) throw err;
        const existing = await rest.find<CloneSetRevision>(resources.controllerRevisions, { namespace: candidate.metadata.namespace, name: candidate.metadata.name });
        if (existing && equalRevisionData(existing, candidate) && existing.metadata.ownerReferences?.some((o) => o.uid === cs.metadata?.uid)) {
          update = existing;
          if (!all.some((r) => r.metadata.name === existing.metadata.name)) all = sortRevisions([...all, existing]);
        } else {
          collisionCount++;
          candidate = newRevision(cs, next, collisionCount);
        }
      }
    }
  }
  const current = all.find((r) => r.metadata.name === cs.status?.currentRevision) ?? update;
  return { current, update, collisionCount, all };
}

/** Deletes the oldest revisions no pod uses (other than current and update) beyond revisionHistoryLimit. */
export async function truncateHistory(rest: KubeRest, cs: CloneSet, revs: Revisions, pods: readonly Pod[]): Promise<void> {
  const limit = cs.spec?.revisionHistoryLimit ?? 10;
  const live = new Set([revs.current.metadata.name, revs.update.metadata.name]);
  const deletable = revs.all.filter((r) => !live.has(r.metadata.name) && !pods.some((p) => matchesRevision(p, r.metadata.name)));
  const excess = deletable.length - limit;
  for (const r of deletable.slice(0, Math.max(excess, 0))) {
    try {
      await rest.delete(resources.controllerRevisions, { namespace: r.metadata.namespace, name: r.metadata.name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
