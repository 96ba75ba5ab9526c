// The ImageListPullJob reconciler over an in-memory apiserver: children created, replaced and deleted, status
// aggregated from the children, completion, TTL, events, and a child cache lagging behind the creates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImageListPullJob, ImageListPullJobSpec } from '../../shared/api/image-list-pull-job.js';
import type { ImagePullJob, ImagePullJobStatus } from '../../shared/api/image-pull-job.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { TemplateHashLabel, templateHash } from './children.js';
import { imageListPullJobController } from './controller.js';

function world(spec: Partial<ImageListPullJobSpec> = {}) {
  const cluster = new FakeCluster();
  const { deps, ctx, clock, events } = fakeDeps(cluster);
  const queue = new RecordingQueue();
  const reconcile = imageListPullJobController.setup(deps, queue);
  cluster.seed<ImageListPullJob>(resources.imageListPullJobs, {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', metadata: { name: 'pre', namespace: 'ns' },
    spec: { images: ['a:1', 'b:1'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, ...spec },
  });
  queue.add('ns/pre');
  const run = () => queue.drain((k) => reconcile(k, ctx));
  const list = () => cluster.get<ImageListPullJob>(resources.imageListPullJobs, 'pre', 'ns');
  const children = () => cluster.informers.cache<ImagePullJob>(resources.imagePullJobs).list()
    .filter((j) => j.metadata?.ownerReferences?.some((r) => r.uid === list()?.metadata?.uid))
    .sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
  const byImage = (image: string) => children().find((c) => c.spec?.image === image)!;
  /** What the ImagePullJob controller would write. */
  const report = (image: string, status: Partial<ImagePullJobStatus>) => {
    const c = byImage(image);
    cluster.seed(resources.imagePullJobs, { ...c, status: { startTime: '2025-06-01T12:00:00Z', desired: 1, active: 0, succeeded: 0, failed: 0, ...status } });
  };
  const edit = (s: Partial<ImageListPullJobSpec>) => { const l = list()!; cluster.seed(resources.imageListPullJobs, { ...l, spec: { ...l.spec!, ...s } }); };
  return { cluster, run, list, children, byImage, report, edit, events, clock, queue, reconcile, ctx };
}

test('one child per image: generateName, hash label, v1beta1 controller reference, template + image; the list gets the hash label', async () => {
  const w = world({ selector: { names: ['n1'] }, parallelism: 2 });
  await w.run();
  const hash = templateHash(w.list()!);
  assert.equal(w.list()?.metadata?.labels?.[TemplateHashLabel], hash);
  const cs = w.children();
  assert.deepEqual(cs.map((c) => c.spec?.image).sort(), ['a:1', 'b:1']);
  for (const c of cs) {
    assert.match(c.metadata!.name!, /^pre-/);
    assert.deepEqual(c.metadata?.labels, { [TemplateHashLabel]: hash });
    assert.deepEqual(c.metadata?.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', name: 'pre', uid: w.list()?.metadata?.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual({ ...c.spec, image: undefined }, { image: undefined, selector: { names: ['n1'] }, parallelism: 2, completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
  }
  assert.deepEqual(w.events.map((e) => [e.kind, e.type, e.reason, e.message]), [['ImageListPullJob', 'Normal', 'Successful create ImagePullJob', 'Create 2 ImagePullJob']]);
  assert.deepEqual({ ...w.list()?.status, startTime: undefined }, { startTime: undefined, desired: 2, active: 0, completed: 0, succeeded: 0 });
  // A second pass with nothing new creates nothing.
  w.queue.add('ns/pre');
  await w.run();
  assert.equal(w.children().length, 2);
});

test('status follows the children; the list completes when every child completed, and records the failed images', async () => {
  const w = world();
  await w.run();
  w.report('a:1', { active: 1 });
  await w.run();
  assert.deepEqual([w.list()?.status?.active, w.list()?.status?.completed], [1, 0]);
  w.report('a:1', { succeeded: 1 });
  w.report('b:1', { failed: 1 });
  await w.run();
  const st = w.list()!.status!;
  const b = w.byImage('b:1').metadata!.name!;
  assert.deepEqual([st.desired, st.active, st.completed, st.succeeded, !!st.completionTime], [2, 0, 2, 1, true]);
  assert.deepEqual(st.failedImageStatuses, [{ imagePullJob: b, name: 'b:1', message: `Please check for details which nodes failed by 'kubectl get ImagePullJob ${b}'.` }]);
});

test('a template edit replaces the children; a removed image loses its child; an added image gets one', async () => {
  const w = world();
  await w.run();
  const before = w.children().map((c) => c.metadata!.name!);
  w.edit({ pullPolicy: { timeoutSeconds: 60, backoffLimit: 3 } });
  await w.run();
  const after = w.children();
  assert.equal(after.length, 2);
  assert.ok(after.every((c) => !before.includes(c.metadata!.name!) && c.spec?.pullPolicy?.timeoutSeconds === 60));
  assert.ok(w.events.some((e) => e.reason === 'Successful delete ImagePullJob' && e.message === 'Delete 2 ImagePullJob'));

  const a = w.byImage('a:1').metadata!.name;
  w.edit({ images: ['a:1', 'c:1'] });
  await w.run();
  assert.deepEqual(w.children().map((c) => c.spec?.image).sort(), ['a:1', 'c:1']);
  assert.equal(w.byImage('a:1').metadata!.name, a, 'the unchanged image keeps its child');
});

test('a child taken over from OpenKruise (other hash label, same template) is kept, not recreated', async () => {
  const w = world();
  const uid = w.cluster.get<ImageListPullJob>(resources.imageListPullJobs, 'pre', 'ns')!.metadata!.uid!;
  for (const [name, image] of [['pre-upstr', 'a:1'], ['pre-upstb', 'b:1']]) {
    w.cluster.seed<ImagePullJob>(resources.imagePullJobs, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob',
      metadata: { name, namespace: 'ns', labels: { [TemplateHashLabel]: '5d7c9b8f4' },
        ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImageListPullJob', name: 'pre', uid, controller: true, blockOwnerDeletion: true }] },
      spec: { image, completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' },
    });
  }
  await w.run();
  assert.deepEqual(w.children().map((c) => c.metadata?.name), ['pre-upstb', 'pre-upstr']);
  assert.deepEqual(w.events, []);
});

test('a child cache lagging behind the creates does not make the controller create twice', async () => {
  const w = world();
  w.cluster.lagging(resources.imagePullJobs, true);
  await w.run();
  w.queue.add('ns/pre');
  await w.run();
  assert.ok(w.queue.delayed.has('ns/pre'), 'waits for its creates to show');
  w.cluster.lagging(resources.imagePullJobs, false);
  await w.run();
  assert.equal(w.children().length, 2);
  assert.equal(w.cluster.calls.filter((c) => c.method === 'POST' && c.plural === 'imagepulljobs').length, 2);
});

test('a completed list with ttlSecondsAfterFinished is deleted once it elapsed; without one it stays', async () => {
  const w = world({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 } });
  await w.run();
  w.report('a:1', { succeeded: 1 });
  w.report('b:1', { succeeded: 1 });
  await w.run();
  assert.ok(w.list()?.status?.completionTime);
  assert.equal(w.queue.delayed.get('ns/pre'), 30_000);
  await w.clock.advance(30_000);
  w.queue.add('ns/pre');
  await w.run();
  assert.equal(w.list(), undefined);
});

test('completionPolicy Never: the list never completes', async () => {
  const w = world({ completionPolicy: { type: 'Never' } });
  await w.run();
  w.report('a:1', { succeeded: 1 });
  w.report('b:1', { succeeded: 1 });
  await w.run();
  assert.deepEqual([w.list()?.status?.completed, w.list()?.status?.completionTime], [2, undefined]);
});
