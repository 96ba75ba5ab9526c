import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ImageTagSpec, NodeImage } from '../../shared/api/node-image.js';
import { cleanupSpec, type CleanupInput } from './spec-cleanup.js';

const T0 = Date.parse('2025-01-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const job = (name: string, uid = `uid-${name}`): V1ObjectReference => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'default', name, uid });
const tag = (t: string, o: Partial<ImageTagSpec> = {}): ImageTagSpec => ({ tag: t, createdAt: iso(T0 - 60_000), version: 0, pullPolicy: { ttlSecondsAfterFinished: 300 }, ...o });
const input = (o: Partial<CleanupInput> = {}): CleanupInput => ({
  nodeLabels: { zone: 'a' }, jobAlive: () => true, secretExists: () => true, daemonConfigNamespace: 'kruise-daemon-config', now: T0, ...o,
});
const ni = (tags: ImageTagSpec[], extra: Partial<NodeImage> = {}): NodeImage => ({
  metadata: { name: 'n1', labels: { zone: 'a' } }, spec: { images: { nginx: { tags } } }, ...extra,
});

test('nothing to do leaves the NodeImage alone', () => {
  assert.deepEqual(cleanupSpec(ni([tag('1.25', { ownerReferences: [job('a')] })]), input()), {});
});

test('labels are an exact copy of the node labels', () => {
  const r = cleanupSpec(ni([tag('1')], { metadata: { name: 'n1', labels: { zone: 'a', manual: 'x' } } }), input({ nodeLabels: { zone: 'b' } }));
  assert.deepEqual(r.update?.labels, { zone: 'b' });
});

test('owner references to gone jobs', () => {
  const gone = new Set(['uid-dead', 'uid-old']);
  const alive = (r: V1ObjectReference) => !gone.has(r.uid!);
  const cases: { name: string; refs: V1ObjectReference[]; want: V1ObjectReference[] | 'dropped' | 'unchanged' }[] = [
    { name: 'all alive: unchanged', refs: [job('a'), job('b')], want: 'unchanged' },
    { name: 'one of two gone: the ref goes, the tag stays', refs: [job('a'), job('dead')], want: [job('a')] },
    { name: 'the only owner gone: the tag goes', refs: [job('dead')], want: 'dropped' },
    { name: 'recreated job (other uid) counts as gone', refs: [job('old')], want: 'dropped' },
    { name: 'refs of other kinds are kept', refs: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'uid-dead' }, job('dead')],
      want: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'uid-dead' }] },
    { name: 'ImagePullJob of another group is not ours to judge', refs: [{ apiVersion: 'example.com/v1', kind: 'ImagePullJob', name: 'x', uid: 'uid-dead' }], want: 'unchanged' },
    { name: 'a tag without owners (written by hand) stays', refs: [], want: 'unchanged' },
  ];
  for (const tc of cases) {
    const r = cleanupSpec(ni([tag('1', { ownerReferences: tc.refs })]), input({ jobAlive: alive }));
    if (tc.want === 'unchanged') assert.equal(r.update, undefined, tc.name);
    else if (tc.want === 'dropped') assert.deepEqual(r.update?.spec.images, undefined, tc.name);
    else assert.deepEqual(r.update?.spec.images?.nginx?.tags[0]?.ownerReferences, tc.want, tc.name);
  }
});

test('tags without createdAt are dropped, images without tags removed', () => {
  const r = cleanupSpec({ metadata: { name: 'n1', labels: { zone: 'a' } }, spec: { images: { nginx: { tags: [{ tag: 'x' }] }, busybox: { tags: [tag('1')] } } } }, input());
  assert.deepEqual(Object.keys(r.update!.spec.images!), ['busybox']);
});

test('TTL after finishing, counted for the same tag version only', () => {
  const status = (completedAgoS: number | undefined, version = 0) => ({
    desired: 1, succeeded: 1, failed: 0, pulling: 0, waiting: 0,
    imageStatuses: { nginx: { tags: [{ tag: '1', phase: 'Succeeded', version, ...(completedAgoS !== undefined ? { completionTime: iso(T0 - completedAgoS * 1000) } : {}) }] } },
  });
  const cases = [
    { name: 'finished 301 s ago with ttl 300: dropped', s: status(301), dropped: true },
    { name: 'finished exactly 300 s ago: dropped', s: status(300), dropped: true },
    { name: 'finished 100 s ago: kept, requeue in 200 s', s: status(100), dropped: false, requeue: 200_000 },
    { name: 'not finished: kept, no TTL requeue', s: status(undefined), dropped: false },
    { name: 'an older round finished: kept', s: status(1000, 0), version: 1, dropped: false },
  ];
  for (const tc of cases) {
    const r = cleanupSpec(ni([tag('1', { version: tc.version ?? 0 })], { status: tc.s }), input());
    assert.equal(r.update !== undefined, tc.dropped, tc.name);
    if (tc.dropped) assert.equal(r.update?.spec.images, undefined, tc.name);
    assert.equal(r.requeueAfterMs, tc.requeue, tc.name);
  }
});

// After upstream TestDoUpdateNodeImage (v1.9): non-batch refs go when their Secret is NotFound, batch refs stay and
// leave with the image entry when its last tag is dropped.
test('pull-secret refs in the daemon namespace are dropped when the copy is gone; others and batch refs stay', () => {
  const refs = [
    { namespace: 'kruise-daemon-config', name: 'gone-abcde' },
    { namespace: 'kruise-daemon-config', name: 'kept-fghij' },
    { namespace: 'kruise-daemon-config', name: 'batch-klmno', mode: 'batch' },
    { namespace: 'default', name: 'elsewhere' },
  ];
  const r = cleanupSpec({ metadata: { name: 'n1', labels: { zone: 'a' } }, spec: { images: { nginx: { tags: [tag('1')], pullSecrets: refs } } } },
    input({ secretExists: (s) => s.name !== 'gone-abcde' && s.name !== 'batch-klmno' && s.name !== 'elsewhere' }));
  assert.deepEqual(r.update?.spec.images?.nginx?.pullSecrets?.map((s) => s.name), ['kept-fghij', 'batch-klmno', 'elsewhere']);
});

test('batch refs leave with the image entry when its last tag is dropped', () => {
  const batch = { namespace: 'kruise-daemon-config', name: 'reg-0a1b2c', mode: 'batch' };
  const r = cleanupSpec({ metadata: { name: 'n1', labels: { zone: 'a' } }, spec: { images: {
    nginx: { tags: [{ ...tag('1'), ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', name: 'j', uid: 'u' }] }],
      pullSecrets: [batch] },
    redis: { tags: [tag('7')], pullSecrets: [batch] } } } },
  input({ jobAlive: () => false, secretExists: () => false }));
  assert.deepEqual(Object.keys(r.update?.spec.images ?? {}), ['redis']);
  assert.deepEqual(r.update?.spec.images?.redis?.pullSecrets, [{ namespace: 'kruise-daemon-config', name: 'reg-0a1b2c', mode: 'batch' }]);
});

test('tags are sorted', () => {
  const r = cleanupSpec(ni([tag('b'), tag('a')]), input());
  assert.deepEqual(r.update?.spec.images?.nginx?.tags.map((t) => t.tag), ['a', 'b']);
});
