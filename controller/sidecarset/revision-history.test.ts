import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { SidecarSetHashAnnotation, type SidecarSet } from '../../shared/api/sidecarset.js';
import { ControllerRevisionHashLabel, revisionData } from '../../shared/domain/sidecarset-revision.js';
import { makePod, makeSet, withImage } from './fixtures.js';
import { activeRevisionNames, candidateRevision, decideLatest, ownedRevisions, renamed, revisionsToDelete, type Revision } from './revision-history.js';

const v1: SidecarSet = { ...makeSet(), metadata: { ...makeSet().metadata, labels: { team: 'a', 'apps.kruise.io/sidecarset-custom-version': 'c1' } } };
const stored = (set: SidecarSet, n: number, cc = 0): Revision => candidateRevision(set, 'kruise-system', n, cc).revision;

test('a candidate carries the SidecarSet labels and annotations, the hash and name labels, and a controller ref', () => {
  const { revision, data } = candidateRevision(v1, 'kruise-system', 3, 0);
  assert.equal(data, revisionData(v1));
  assert.match(revision.metadata!.name!, /^scs-[bcdfghjklmnpqrstvwxz2456789]+$/);
  assert.equal(revision.metadata!.namespace, 'kruise-system');
  assert.equal(revision.revision, 3);
  assert.deepEqual(revision.metadata!.labels, {
    team: 'a', 'apps.kruise.io/sidecarset-custom-version': 'c1', 'kruise.io/sidecarset-name': 'scs',
    [ControllerRevisionHashLabel]: revision.metadata!.name!.slice('scs-'.length),
  });
  assert.equal(revision.metadata!.annotations![SidecarSetHashAnnotation], v1.metadata!.annotations![SidecarSetHashAnnotation]);
  assert.deepEqual(revision.metadata!.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', name: 'scs', uid: 'uid-scs', controller: true, blockOwnerDeletion: true }]);
});

test('a collision renames the candidate but keeps its first hash label', () => {
  const c = candidateRevision(v1, 'ns', 1, 0);
  const r = renamed(c, 'scs', 1);
  assert.notEqual(r.metadata!.name, c.revision.metadata!.name);
  assert.equal(r.metadata!.labels![ControllerRevisionHashLabel], c.revision.metadata!.labels![ControllerRevisionHashLabel]);
});

test('owned revisions: by name label, controlled by this SidecarSet or by nobody, oldest first', () => {
  const mine = stored(v1, 2);
  const orphan = { ...stored(withImage(v1, 'x:1'), 1), metadata: { ...stored(withImage(v1, 'x:1'), 1).metadata, ownerReferences: [] } };
  const foreign = { ...stored(v1, 5), metadata: { ...stored(v1, 5).metadata, ownerReferences: [{ apiVersion: 'v', kind: 'k', name: 'n', uid: 'other', controller: true }] } };
  const otherSet = { ...stored(v1, 6), metadata: { ...stored(v1, 6).metadata, labels: { 'kruise.io/sidecarset-name': 'nope' } } };
  assert.deepEqual(ownedRevisions([mine, foreign, orphan, otherSet], v1), [orphan, mine]);
});

const decisions: { name: string; history: () => Revision[]; current: SidecarSet; want: string }[] = [
  { name: 'no history: create', history: () => [], current: v1, want: 'create' },
  { name: 'the newest revision is the current spec: unchanged', history: () => [stored(withImage(v1, 'x:1'), 1), stored(v1, 2)], current: v1, want: 'unchanged:2' },
  { name: 'an older revision is the current spec: roll back to it', history: () => [stored(v1, 1), stored(withImage(v1, 'x:1'), 2)], current: v1, want: 'rollback:1->3' },
  { name: 'a new spec: create', history: () => [stored(v1, 1)], current: withImage(v1, 'x:2'), want: 'create' },
  { name: 'labels and annotations do not make a revision different', history: () => [stored(v1, 1)], current: { ...v1, metadata: { ...v1.metadata, labels: { other: 'x' } } }, want: 'unchanged:1' },
];
for (const tc of decisions) {
  test(`latest revision: ${tc.name}`, () => {
    const history = tc.history();
    const d = decideLatest(history, candidateRevision(tc.current, 'kruise-system', (history.at(-1)?.revision ?? 0) + 1, 0));
    const got = d.kind === 'create' ? 'create' : d.kind === 'unchanged' ? `unchanged:${d.revision.revision}` : `rollback:${d.revision.revision}->${d.to}`;
    assert.equal(got, tc.want);
  });
}

test('history is trimmed to revisionHistoryLimit, oldest first, sparing revisions pods run and the latest', () => {
  const set = { ...v1, spec: { ...v1.spec, revisionHistoryLimit: 2 } };
  const history = [1, 2, 3, 4].map((n) => stored(withImage(v1, `x:${n}`), n));
  const podOn = (rev: Revision): Pod => {
    const pod = makePod(rev.metadata!.name!, []);
    pod.metadata!.annotations = { [SidecarSetHashAnnotation]: JSON.stringify({ scs: { hash: 'h', sidecarSetName: 'scs', controllerRevision: rev.metadata!.name } }) };
    return pod;
  };
  assert.deepEqual(revisionsToDelete(set, [podOn(history[0]!)], history), { names: [history[1]!.metadata!.name, history[2]!.metadata!.name], shortBy: 0 });
  assert.deepEqual(revisionsToDelete(set, [podOn(history[0]!), podOn(history[1]!)], history), { names: [history[2]!.metadata!.name], shortBy: 1 });
  assert.deepEqual(revisionsToDelete({ ...set, spec: { ...set.spec, revisionHistoryLimit: 0 } }, [], history).names, history.slice(0, 3).map((r) => r.metadata!.name));
  assert.deepEqual(revisionsToDelete(v1, [], history).names, [], 'the default limit is 10');
});

test('injectionStrategy.revision keeps its revision: by name, or the newest with the custom version', () => {
  const a = stored(v1, 1);
  const b = stored(withImage(v1, 'x:2'), 2);
  const set = { ...v1, spec: { ...v1.spec, injectionStrategy: { revision: { customVersion: 'c1' } } } };
  assert.deepEqual([...activeRevisionNames(set, [], [a, b])], [b.metadata!.name]);
  const byName = { ...v1, spec: { ...v1.spec, injectionStrategy: { revision: { revisionName: 'pinned' } } } };
  assert.deepEqual([...activeRevisionNames(byName, [], [a, b])], ['pinned']);
});
