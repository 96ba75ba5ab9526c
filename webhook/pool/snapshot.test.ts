// The caches' snapshots: main pushes only the parts that changed, once per debounce window; the worker's CacheSet
// answers from the last push, with onChange heard on each replacement (so admissionCaches' sorted list is rebuilt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cache } from '../../shared/kube/informer.js';
import { admissionCaches, type CacheSet } from '../caches.js';
import { snapshotCacheSet, snapshotSource, type SnapshotParts } from './snapshot.js';

function liveCache<T>(items: T[], synced = true): Cache<T> & { change(next: T[]): void; list(): T[] } {
  const listeners: Array<(o: T, v: 'update') => void> = [];
  let list = items;
  return {
    synced: synced ? Promise.resolve() : new Promise(() => {}),
    isSynced: () => synced,
    list: () => list,
    get: () => undefined,
    onChange: (cb) => void listeners.push(cb),
    change(next) { list = next; for (const l of listeners) l(next[0]!, 'update'); },
  };
}

test('main pushes the changed parts only, once per debounce window', async () => {
  const set = {
    sidecarSets: liveCache([{ metadata: { name: 'b' } }, { metadata: { name: 'a' } }]),
    namespaces: liveCache([{ metadata: { name: 'team-a', labels: { env: 'prod' } } }]),
    revisions: liveCache([]),
    configMaps: liveCache([]),
  };
  const pushes: Array<Partial<SnapshotParts>> = [];
  const source = snapshotSource(set as unknown as CacheSet, (p) => pushes.push(p), 10);
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(pushes.map((p) => Object.keys(p).sort()), [['sidecarSets', 'sidecarSetsSynced']], 'the first list is announced once');
  pushes.length = 0;
  for (let i = 0; i < 100; i++) set.namespaces.change([{ metadata: { name: 'team-a', labels: { env: `v${i}` } } }]);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(pushes.length, 1, 'a hundred changes, one push');
  assert.deepEqual(pushes[0], { namespaces: [['team-a', { env: 'v99' }]] });
  assert.deepEqual(Object.keys(source.full()).sort(), ['configMaps', 'namespaces', 'pubs', 'revisions', 'sidecarSets', 'sidecarSetsSynced', 'workloadSpreads']);
  source.stop();
});

test('the worker side: lookups answer from the last push; the SidecarSet list is re-sorted after each', async () => {
  const { set, apply } = snapshotCacheSet();
  const caches = admissionCaches(set, { fetchPod: async () => undefined, fetchNode: async () => undefined });
  assert.equal(set.sidecarSets.isSynced(), false);
  apply({ sidecarSets: [{ metadata: { name: 'z' } }, { metadata: { name: 'a' } }] as never, sidecarSetsSynced: true, namespaces: [['team-a', { env: 'prod' }]] });
  await set.sidecarSets.synced;
  assert.deepEqual(caches.sidecarSets().map((s) => s.metadata?.name), ['a', 'z']);
  assert.deepEqual(caches.namespaceLabels('team-a'), { env: 'prod' });
  assert.equal(caches.namespaceLabels('nope'), undefined);
  apply({ sidecarSets: [{ metadata: { name: 'm' } }] as never, revisions: [{ metadata: { name: 'rev-1' }, revision: 1 }] as never });
  assert.deepEqual(caches.sidecarSets().map((s) => s.metadata?.name), ['m']);
  assert.equal(caches.revisionByName('rev-1')?.revision, 1);
  assert.deepEqual(caches.namespaceLabels('team-a'), { env: 'prod' }, 'parts not pushed are kept');
});
