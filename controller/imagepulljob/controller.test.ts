// The ImagePullJob reconciler over an in-memory apiserver: the thin layer's writes (finalizer, tags, status, secret
// copies) and its use of the caches, including a cache that lags behind its own writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import type { ImagePullJob, ImagePullJobSpec } from '../../shared/api/image-pull-job.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { imagePullJobController, makeImagePullJobController, NODEIMAGE_EVENT_DELAY_MS, type ImagePullJobControllerOptions } from './controller.js';
import { recordingInformers } from './recording-informers.js';
import { SOURCE_READ_SPACING_MS, SOURCE_RESYNC_MS } from './secret-sources.js';
import { PROGRESS_WRITE_INTERVAL_MS } from './status-pacing.js';

const NODES = ['n1', 'n2', 'n3'];
const IMAGE = 'e2e/app';

function world(spec: Partial<ImagePullJobSpec>, o: { finalizer?: boolean; options?: ImagePullJobControllerOptions } = {}) {
  const cluster = new FakeCluster();
  cluster.seed(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-daemon-config' } });
  for (const n of NODES) cluster.seed<NodeImage>(resources.nodeImages, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: n, labels: { zone: n === 'n2' ? 'b' : 'a' } }, spec: {} });
  const { deps, ctx, clock } = fakeDeps(cluster);
  const { informers, requests } = recordingInformers(deps.informers);
  const queue = new RecordingQueue();
  const reconcile = (o.options ? makeImagePullJobController(o.options) : imagePullJobController).setup({ ...deps, informers }, queue);
  const job = cluster.seed<ImagePullJob>(resources.imagePullJobs, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob',
    metadata: { name: 'j', namespace: 'ns', ...(o.finalizer === false ? {} : { finalizers: ['apps.kruise.io/deletion-protection'] }) },
    spec: { image: `${IMAGE}:1`, completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent', ...spec },
  });
  // As the runner would: progress held back by the status write interval is written once the interval has passed.
  const run = async () => {
    await queue.drain((k) => reconcile(k, ctx));
    for (let i = 0; i < 10; i++) {
      const progress = [...queue.delayed].filter(([, ms]) => ms <= PROGRESS_WRITE_INTERVAL_MS);
      if (!progress.length) return;
      await clock.advance(Math.max(...progress.map(([, ms]) => ms)));
      for (const [k] of progress) { queue.delayed.delete(k); queue.add(k); }
      await queue.drain((k) => reconcile(k, ctx));
    }
  };
  const ni = (n: string) => cluster.get<NodeImage>(resources.nodeImages, n)!;
  const holders = () => NODES.filter((n) => ni(n).spec?.images?.[IMAGE]?.tags.some((t) => t.tag === '1'));
  const getJob = () => cluster.get<ImagePullJob>(resources.imagePullJobs, 'j', 'ns');
  const report = (n: string, phase: string) => {
    const cur = ni(n);
    const version = cur.spec!.images![IMAGE]!.tags[0]!.version;
    cluster.seed(resources.nodeImages, { ...cur, status: { desired: 1, succeeded: 0, failed: 0, pulling: 0, waiting: 0,
      imageStatuses: { [IMAGE]: { tags: [{ tag: '1', phase, version, completionTime: '2025-06-01T12:00:00Z' }] } } } });
  };
  /** Only what NodeImage events queue (their short coalescing delay), not the status interval. */
  const drainEvents = async () => {
    const woken = [...queue.delayed].filter(([, ms]) => ms <= NODEIMAGE_EVENT_DELAY_MS);
    await clock.advance(NODEIMAGE_EVENT_DELAY_MS);
    for (const [k] of woken) { queue.delayed.delete(k); queue.add(k); }
    await queue.drain((k) => reconcile(k, ctx));
  };
  return { cluster, job, run, drainEvents, clock, ni, holders, getJob, report, queue, requests };
}

test('parallelism 1 rolls through the nodes as pulls finish, then completes and drops the finalizer', async () => {
  const w = world({ parallelism: 1, selector: { names: NODES } }, { finalizer: false });
  await w.run();
  assert.deepEqual(w.holders(), ['n1']);
  assert.deepEqual(w.getJob()?.metadata?.finalizers, ['apps.kruise.io/deletion-protection'], 'finalizer ensured');
  assert.deepEqual({ ...w.getJob()?.status, startTime: undefined }, { startTime: undefined, desired: 3, active: 1, succeeded: 0, failed: 0, message: 'job is running, progress 0.0%' });
  w.report('n1', 'Succeeded');
  await w.run();
  assert.deepEqual(w.holders(), ['n1', 'n2']);
  w.report('n2', 'Failed');
  await w.run();
  w.report('n3', 'Succeeded');
  await w.run();
  const st = w.getJob()?.status;
  assert.deepEqual([st?.succeeded, st?.failed, st?.failedNodes, st?.message, !!st?.completionTime], [2, 1, ['n2'], 'job has completed', true]);
  assert.deepEqual(w.getJob()?.metadata?.finalizers, []);
});

test('a cache lagging behind our own writes does not make the job write again or exceed parallelism', async () => {
  const w = world({ parallelism: 1, selector: { names: NODES } });
  w.cluster.lagging(resources.nodeImages, true);
  await w.run();
  w.queue.add('ns/j');
  await w.run();
  w.queue.add('ns/j');
  await w.run();
  const puts = w.cluster.calls.filter((c) => c.method === 'PUT' && c.plural === 'nodeimages');
  assert.deepEqual(puts.map((c) => c.name), ['n1'], 'one write, to the first node only');
  w.cluster.lagging(resources.nodeImages, false);
});

test('deleting a running job withdraws its tags, then releases the finalizer', async () => {
  const w = world({ parallelism: 5 });
  await w.run();
  assert.deepEqual(w.holders(), NODES);
  await w.cluster.rest.delete(resources.imagePullJobs, { namespace: 'ns', name: 'j' });
  await w.run();
  assert.deepEqual(w.holders(), []);
  assert.equal(w.getJob(), undefined, 'gone once the finalizer is released');
});

test('a selector edit moves the tag; a tag shared with another job keeps that owner', async () => {
  const w = world({ parallelism: 5, selector: { matchLabels: { zone: 'a' } }, completionPolicy: { type: 'Never' } });
  const other = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'ns', name: 'k', uid: 'uid-k' };
  await w.run();
  assert.deepEqual(w.holders(), ['n1', 'n3']);
  const n3 = w.ni('n3');
  n3.spec!.images![IMAGE]!.tags[0]!.ownerReferences!.push(other);
  w.cluster.seed(resources.nodeImages, n3);
  const job = w.getJob()!;
  w.cluster.seed(resources.imagePullJobs, { ...job, spec: { ...job.spec!, selector: { matchLabels: { zone: 'b' } } } });
  await w.run();
  assert.deepEqual(w.holders(), ['n2', 'n3']);
  assert.deepEqual(w.ni('n3').spec!.images![IMAGE]!.tags[0]!.ownerReferences, [other], 'n3 keeps the tag for the other job');
  assert.equal(w.ni('n1').spec?.images, undefined);
});

test('a pull-policy edit reaches the tags the job owns (kruise#2221)', async () => {
  const w = world({ parallelism: 5, pullPolicy: { timeoutSeconds: 15, backoffLimit: 1 } });
  await w.run();
  const job = w.getJob()!;
  w.cluster.seed(resources.imagePullJobs, { ...job, spec: { ...job.spec!, pullPolicy: { timeoutSeconds: 10, backoffLimit: 1 } } });
  await w.run();
  for (const n of NODES) assert.equal(w.ni(n).spec!.images![IMAGE]!.tags[0]!.pullPolicy?.timeoutSeconds, 10, n);
});

test('pull secrets: copied into kruise-daemon-config, listed in the NodeImages, released at completion', async () => {
  const w = world({ parallelism: 5, selector: { names: ['n1'] }, pullSecrets: ['reg'] });
  w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg', namespace: 'ns' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': 'e30=' } });
  await w.run();
  const copies = (await w.cluster.rest.list<V1Secret>(resources.secrets)).items.filter((s) => s.metadata?.namespace === 'kruise-daemon-config');
  assert.equal(copies.length, 1);
  assert.deepEqual(w.ni('n1').spec!.images![IMAGE]!.pullSecrets, [{ namespace: 'kruise-daemon-config', name: copies[0]!.metadata!.name, mode: 'batch' }]);
  assert.equal(copies[0]!.metadata?.annotations?.['imagepulljobs.kruise.io/references'], 'ns/j');
  w.report('n1', 'Succeeded');
  await w.run();
  assert.ok(w.getJob()?.status?.completionTime);
  assert.equal((await w.cluster.rest.list<V1Secret>(resources.secrets)).items.filter((s) => s.metadata?.namespace === 'kruise-daemon-config').length, 0);
});

test('two jobs listing one source share one copy; it goes when the last of them is deleted (v1.9 batch mode)', async () => {
  const w = world({ parallelism: 5, selector: { names: ['n1'] }, pullSecrets: ['reg'] });
  w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg', namespace: 'ns' }, data: { k: 'djE=' } });
  await w.run();
  w.cluster.seed<ImagePullJob>(resources.imagePullJobs, { ...w.job, metadata: { name: 'k', namespace: 'ns', finalizers: ['apps.kruise.io/deletion-protection'] },
    spec: { ...w.job.spec!, image: `${IMAGE}:2` } });
  await w.run();
  const copies = await daemonCopies(w.cluster);
  assert.deepEqual(copies.map((c) => c.metadata?.annotations?.['imagepulljobs.kruise.io/references']), ['ns/j,ns/k']);
  assert.deepEqual(w.ni('n1').spec!.images![IMAGE]!.pullSecrets, [{ namespace: 'kruise-daemon-config', name: copies[0]!.metadata!.name, mode: 'batch' }],
    'both tags of the image use the one copy');
  await w.cluster.rest.delete(resources.imagePullJobs, { namespace: 'ns', name: 'j' });
  await w.run();
  assert.deepEqual((await daemonCopies(w.cluster)).map((c) => c.metadata?.annotations?.['imagepulljobs.kruise.io/references']), ['ns/k'], 'kept for the other job');
  await w.cluster.rest.delete(resources.imagePullJobs, { namespace: 'ns', name: 'k' });
  await w.run();
  assert.deepEqual(await daemonCopies(w.cluster), [], 'the last job out deletes it');
});

test('a copy written by v1.8 (per job, no mode) is reused and referenced without mode', async () => {
  const w = world({ parallelism: 5, selector: { names: ['n1'] }, pullSecrets: ['reg'] });
  w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg', namespace: 'ns' }, data: { k: 'djE=' } });
  w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', data: { k: 'djE=' }, metadata: { name: 'reg-x7k2p', namespace: 'kruise-daemon-config',
    labels: { 'imagepulljobs.kruise.io/source-uid': 'old' }, annotations: { 'imagepulljobs.kruise.io/source-key': 'ns/reg', 'imagepulljobs.kruise.io/references': 'ns/old-job' } } });
  await w.run();
  const copies = await daemonCopies(w.cluster);
  assert.deepEqual(copies.map((c) => [c.metadata?.name, c.metadata?.annotations?.['imagepulljobs.kruise.io/references']]), [['reg-x7k2p', 'ns/j,ns/old-job']]);
  assert.deepEqual(w.ni('n1').spec!.images![IMAGE]!.pullSecrets, [{ namespace: 'kruise-daemon-config', name: 'reg-x7k2p' }]);
});

const daemonCopies = async (c: FakeCluster) => (await c.rest.list<V1Secret>(resources.secrets)).items.filter((s) => s.metadata?.namespace === 'kruise-daemon-config');

test('Secrets are cached from kruise-daemon-config only; a source is read with a GET (review H2)', async () => {
  const w = world({ parallelism: 5, selector: { names: ['n1'] }, pullSecrets: ['reg'] });
  w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg', namespace: 'ns' }, data: { k: 'djE=' } });
  await w.run();
  assert.deepEqual(w.requests.filter((r) => r.plural === 'secrets'), [{ plural: 'secrets', namespace: 'kruise-daemon-config' }]);
  assert.ok(w.cluster.calls.some((c) => c.method === 'GET' && c.plural === 'secrets' && c.name === 'reg'), 'the source was read on demand');
  assert.equal((await daemonCopies(w.cluster)).length, 1);
});

test('an edited source Secret reaches its copy at the resync, though no cache watches it', async () => {
  const w = world({ parallelism: 5, selector: { names: ['n1'] }, pullSecrets: ['reg'] });
  const src = w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg', namespace: 'ns' }, data: { k: 'djE=' } });
  await w.run();
  assert.equal(w.queue.delayed.get('ns/j'), SOURCE_RESYNC_MS, 'a job copying sources comes back to read them');
  w.cluster.seed<V1Secret>(resources.secrets, { ...src, data: { k: 'djI=' } });
  assert.equal(w.queue.pending.size, 0, 'the edit itself wakes nothing (sources are not watched)');
  w.queue.delayed.delete('ns/j');
  await w.clock.advance(SOURCE_RESYNC_MS);
  w.queue.add('ns/j');
  await w.run();
  assert.deepEqual((await daemonCopies(w.cluster)).map((c) => c.data), [{ k: 'djI=' }]);
});

test('a source that cannot be read is an error, not a missing source: its copy stays', async () => {
  const w = world({ parallelism: 5, selector: { names: ['n1'] }, pullSecrets: ['reg'] });
  w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg', namespace: 'ns' }, data: { k: 'djE=' } });
  await w.run();
  const find = w.cluster.rest.find;
  w.cluster.rest.find = async (r, o) => { if (r.plural === 'secrets') throw new Error('GET secrets: no answer within 30000 ms'); return find(r, o); };
  await w.clock.advance(SOURCE_RESYNC_MS);
  w.queue.add('ns/j');
  await assert.rejects(w.run(), /no answer/);
  assert.equal((await daemonCopies(w.cluster)).length, 1);
});

test('an Always job past its TTL is deleted', async () => {
  const w = world({ parallelism: 5, selector: { names: [] }, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 0 } });
  await w.run();
  assert.equal(w.getJob(), undefined, 'matched nothing, completed at once, TTL 0');
});

test('progress reported by many nodes at once is written once per interval; the completion at once', async () => {
  const w = world({ parallelism: 3, selector: { names: NODES } });
  await w.run();
  const statusPuts = () => w.cluster.calls.filter((c) => c.method === 'PUT' && c.plural === 'imagepulljobs' && c.subresource === 'status').length;
  const before = statusPuts();
  w.report('n1', 'Succeeded');
  await w.drainEvents();
  w.report('n2', 'Succeeded');
  await w.drainEvents();
  assert.equal(statusPuts(), before, 'two reports within the interval: no status write yet');
  assert.ok((w.queue.delayed.get('ns/j') ?? Infinity) <= PROGRESS_WRITE_INTERVAL_MS, 'the job comes back when the interval is over');
  await w.run();
  assert.equal(statusPuts(), before + 1, 'both reports in one write');
  assert.equal(w.getJob()?.status?.succeeded, 2);
  w.report('n3', 'Succeeded');
  await w.drainEvents();
  assert.equal(statusPuts(), before + 2, 'the completion is not held back');
  assert.ok(w.getJob()?.status?.completionTime);
});

for (const tagLevel of [true, false]) {
  test(`a daemon report for one tag ${tagLevel ? 'wakes only that tag\'s job (tag-level filter, kruise#2483)' : 'wakes every job of the image (filter off)'}`, async () => {
    const w = world({ parallelism: 5, selector: { names: ['n1'] } }, { options: { tagLevelNodeImageEvents: tagLevel } });
    w.cluster.seed<ImagePullJob>(resources.imagePullJobs, { ...w.job, metadata: { name: 'k', namespace: 'ns', finalizers: ['apps.kruise.io/deletion-protection'] },
      spec: { ...w.job.spec!, image: `${IMAGE}:2` } });
    await w.run();
    assert.deepEqual(w.ni('n1').spec!.images![IMAGE]!.tags.map((t) => t.tag), ['1', '2']);
    w.queue.delayed.clear();
    w.report('n1', 'Succeeded');
    assert.deepEqual([...w.queue.delayed.keys()].sort(), tagLevel ? ['ns/j'] : ['ns/j', 'ns/k']);
  });
}

test('sources are read once per reconcile, and a job costs at most one source GET a second however often it reconciles (review N-M3)', async () => {
  const n = 64;
  const names = Array.from({ length: n }, (_, i) => `reg-${i}`);
  const w = world({ parallelism: 3, selector: { names: NODES }, pullSecrets: names });
  for (const name of names) w.cluster.seed<V1Secret>(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns' }, data: { k: 'djE=' } });
  const secretGets = () => w.cluster.calls.filter((c) => c.method === 'GET' && c.plural === 'secrets').length;
  await w.run();
  assert.equal(secretGets(), n, 'the first round: one GET per source');
  // Node progress wakes the job every second: its sources are not read again for n seconds.
  for (const node of ['n1', 'n2']) { w.report(node, 'Succeeded'); await w.drainEvents(); await w.run(); }
  assert.equal(secretGets(), n);
  assert.equal(w.queue.delayed.get('ns/j') ?? Infinity, Math.max(SOURCE_RESYNC_MS, n * SOURCE_READ_SPACING_MS), 'the resync of a job with many sources is spaced out');
  await w.clock.advance(n * SOURCE_READ_SPACING_MS);
  w.queue.delayed.delete('ns/j');
  w.queue.add('ns/j');
  await w.run();
  assert.equal(secretGets(), 2 * n, 'read again once the interval is over');
});
