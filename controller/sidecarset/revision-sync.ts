// registerLatestRevision (spec/daemon-and-controllers.md §6.8) against the API: make sure the SidecarSet's current
// version is recorded as its newest ControllerRevision, keep the custom-version label on it, trim old history.
import type { Logger } from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { SidecarSetCustomVersionLabel } from '../../shared/api/sidecarset.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import { canonicalRevisionData } from '../../shared/domain/sidecarset-revision.js';
import { candidateRevision, decideLatest, renamed, revisionsToDelete, type Revision } from './revision-history.js';

export const FIELD_MANAGER = 'kruise-ts-sidecarset';

export interface LatestRevision { revision: Revision; collisionCount: number }

/** Creates the candidate, bumping collisionCount while its name is taken by different data (CreateControllerRevision). */
async function create(rest: KubeRest, set: SidecarSet, namespace: string, revisionNumber: number, collisionCount: number): Promise<LatestRevision> {
  const c = candidateRevision(set, namespace, revisionNumber, collisionCount);
  for (let count = collisionCount; ; count++) {
    const rev = renamed(c, set.metadata?.name ?? '', count);
    try {
      return { revision: await rest.create<Revision>(resources.controllerRevisions, rev, { fieldManager: FIELD_MANAGER }), collisionCount: count };
    } catch (err) {
      if (!isConflict(err)) throw err;
      const existing = await rest.get<Revision>(resources.controllerRevisions, { namespace, name: rev.metadata!.name! });
      if (canonicalRevisionData(existing.data) === c.data) return { revision: existing, collisionCount: count };
    }
  }
}

/**
 * The SidecarSet's latest revision after recording its current spec: the newest stored one when equal, an older equal
 * one renumbered as newest (rollback), or a new one. `revisions` are the SidecarSet's own, oldest first.
 */
export async function syncRevisions(deps: { rest: KubeRest; log: Logger; namespace: string }, set: SidecarSet, revisions: Revision[], pods: readonly Pod[]): Promise<LatestRevision> {
  const { rest, namespace } = deps;
  let collisionCount = set.status?.collisionCount ?? 0;
  const next = revisions.length ? revisions[revisions.length - 1]!.revision + 1 : 1;
  const decision = decideLatest(revisions, candidateRevision(set, namespace, next, collisionCount));
  let latest: Revision;
  let history = revisions;
  if (decision.kind === 'unchanged') latest = decision.revision;
  else if (decision.kind === 'rollback') {
    latest = await rest.patch<Revision>(resources.controllerRevisions, { namespace, name: decision.revision.metadata!.name! }, 'merge',
      { revision: decision.to }, { fieldManager: FIELD_MANAGER });
    history = [...revisions.filter((r) => r !== decision.revision), latest];
  } else {
    ({ revision: latest, collisionCount } = await create(rest, set, namespace, next, collisionCount));
    history = [...revisions, latest];
  }

  const customVersion = set.metadata?.labels?.[SidecarSetCustomVersionLabel];
  if (customVersion && latest.metadata?.labels?.[SidecarSetCustomVersionLabel] !== customVersion) {
    latest = await rest.patch<Revision>(resources.controllerRevisions, { namespace, name: latest.metadata!.name! }, 'strategic',
      { metadata: { labels: { [SidecarSetCustomVersionLabel]: customVersion } } }, { fieldManager: FIELD_MANAGER });
  }

  // Trimming is housekeeping: upstream logs its failures and carries on.
  const { names, shortBy } = revisionsToDelete(set, pods, history);
  try {
    for (const name of names) await rest.delete(resources.controllerRevisions, { namespace, name });
  } catch (err) {
    if (!isNotFound(err)) deps.log.warn({ err }, 'could not delete old ControllerRevisions');
  }
  if (shortBy > 0) deps.log.info({ kept: shortBy }, 'revisions beyond revisionHistoryLimit are still used by pods');
  return { revision: latest, collisionCount };
}
