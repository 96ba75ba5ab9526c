// The SidecarSet's ControllerRevision history (spec/daemon-and-controllers.md §6.8), as pure decisions: which stored
// revisions belong to it, what the current one looks like, whether it is new, a rollback or unchanged, and which old
// ones may go.
import type { V1ControllerRevision, V1OwnerReference } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { SidecarSetCustomVersionLabel, SidecarSetNameLabel } from '../../shared/api/sidecarset.js';
import { canonicalRevisionData, ControllerRevisionHashLabel, revisionData, revisionHash, revisionName } from '../../shared/domain/sidecarset-revision.js';
import { podView } from './pod-view.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';

export type Revision = V1ControllerRevision;

const controllerOf = (r: Revision): V1OwnerReference | undefined => r.metadata?.ownerReferences?.find((o) => o.controller);

/** history.SortControllerRevisions: by revision number, then name. */
export const byRevision = (a: Revision, b: Revision) =>
  a.revision - b.revision || ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0);

/** The SidecarSet's revisions (its name label; controlled by it or by nobody), oldest first. */
export function ownedRevisions(all: readonly Revision[], set: SidecarSet): Revision[] {
  const name = set.metadata?.name;
  return all.filter((r) => {
    if (r.metadata?.labels?.[SidecarSetNameLabel] !== name) return false;
    const ref = controllerOf(r);
    return !ref || ref.uid === set.metadata?.uid;
  }).sort(byRevision);
}

export interface Candidate { revision: Revision; data: string }

/**
 * history.NewControllerRevision plus the SidecarSet specifics (NewRevision): labels of the SidecarSet plus the hash,
 * name and custom-version labels; every SidecarSet annotation; controller reference to the SidecarSet.
 */
export function candidateRevision(set: SidecarSet, namespace: string, revisionNumber: number, collisionCount: number): Candidate {
  const data = revisionData(set);
  const hash = revisionHash(data, collisionCount);
  const md = set.metadata ?? {};
  const labels: Record<string, string> = { ...(md.labels ?? {}), [ControllerRevisionHashLabel]: hash };
  if (md.labels?.[SidecarSetCustomVersionLabel]) labels[SidecarSetCustomVersionLabel] = md.labels[SidecarSetCustomVersionLabel];
  labels[SidecarSetNameLabel] = md.name ?? '';
  // Every SidecarSet annotation, hence both hash annotations the webhook restores a revision's hashes from.
  const annotations: Record<string, string> = { ...(md.annotations ?? {}) };
  return {
    data,
    revision: {
      apiVersion: 'apps/v1', kind: 'ControllerRevision',
      metadata: {
        name: revisionName(md.name ?? '', hash), namespace, labels, annotations,
        ownerReferences: [{ apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', name: md.name ?? '', uid: md.uid ?? '', controller: true, blockOwnerDeletion: true }],
      },
      data: JSON.parse(data) as object,
      revision: revisionNumber,
    },
  };
}

/** The same candidate named for another collision count; the hash label keeps the first hash, as upstream's retry does. */
export function renamed(c: Candidate, setName: string, collisionCount: number): Revision {
  return { ...c.revision, metadata: { ...c.revision.metadata, name: revisionName(setName, revisionHash(c.data, collisionCount)) } };
}

/** ParseInt(label, 10, 32) of the hash label, as history.EqualRevision reads it. */
function hashLabel(r: Revision): number | undefined {
  const v = r.metadata?.labels?.[ControllerRevisionHashLabel];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** history.EqualRevision: hash labels (when both parse) agree and the data bytes are identical. */
export function equalRevision(a: Revision, b: Revision, bData?: string): boolean {
  const ha = hashLabel(a);
  const hb = hashLabel(b);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return canonicalRevisionData(a.data) === (bData ?? canonicalRevisionData(b.data));
}

export type LatestDecision =
  | { kind: 'unchanged'; revision: Revision }
  | { kind: 'rollback'; revision: Revision; to: number }
  | { kind: 'create' };

/** Unchanged when the newest stored revision equals the candidate; rollback when an older one does; else create. */
export function decideLatest(revisions: readonly Revision[], c: Candidate): LatestDecision {
  const equal = revisions.filter((r) => equalRevision(r, c.revision, c.data));
  if (equal.length === 0) return { kind: 'create' };
  const last = revisions[revisions.length - 1]!;
  const lastEqual = equal[equal.length - 1]!;
  if (equalRevision(last, lastEqual)) return { kind: 'unchanged', revision: last };
  return { kind: 'rollback', revision: lastEqual, to: c.revision.revision };
}

/** Names pods still run (their hash entry's controllerRevision) or injection still asks for. */
export function activeRevisionNames(set: SidecarSet, pods: readonly Pod[], revisions: readonly Revision[]): Set<string> {
  const name = set.metadata?.name ?? '';
  const active = new Set<string>();
  for (const pod of pods) {
    const r = podView(pod).hash.get(name)?.controllerRevision;
    if (r) active.add(r);
  }
  const wanted = set.spec?.injectionStrategy?.revision;
  if (wanted?.revisionName != null) active.add(wanted.revisionName);
  if (wanted?.customVersion != null) {
    const tagged = revisions.filter((r) => r.metadata?.labels?.[SidecarSetCustomVersionLabel] === wanted.customVersion).sort(byRevision);
    if (tagged.length) active.add(tagged[tagged.length - 1]!.metadata?.name ?? '');
  }
  return active;
}

/**
 * truncateHistory: beyond revisionHistoryLimit (default 10, at least 1), the oldest revisions that nothing uses, never
 * the latest (last). `shortBy` > 0 says how many over the limit had to stay because they are in use.
 */
export function revisionsToDelete(set: SidecarSet, pods: readonly Pod[], revisions: readonly Revision[]): { names: string[]; shortBy: number } {
  const limit = Math.max(1, set.spec?.revisionHistoryLimit ?? 10);
  let excess = revisions.length - limit;
  if (excess <= 0) return { names: [], shortBy: 0 };
  const active = activeRevisionNames(set, pods, revisions);
  const names: string[] = [];
  for (let i = 0; i < revisions.length - 1 && excess > 0; i++) {
    const n = revisions[i]!.metadata?.name ?? '';
    if (active.has(n)) continue;
    names.push(n);
    excess--;
  }
  return { names, shortBy: excess };
}
