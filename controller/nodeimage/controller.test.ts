// The NodeImage reconciler over an in-memory apiserver: creation after the Ready delay, deletion with the node,
// tags of gone jobs dropped (a cache miss confirmed by GET), unanswered tags failed with events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { recordingInformers } from '../imagepulljob/recording-informers.js';
import { nodeImageController } from './controller.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const node = (name: string, readySince: number, labels: Record<string, string> = { zone: 'a' }): V1Node => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels },
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(readySince) as unknown as Date }] },
});

function world() {
  const cluster = new FakeCluster();
  const { deps, ctx, clock, events } = fakeDeps(cluster);
  const { informers, requests } = recordingInformers(deps.informers);
  const queue = new RecordingQueue();
  const reconcile = nodeImageController.setup({ ...deps, informers }, queue);
  const run = () => queue.drain((k) => reconcile(k, ctx));
  const ni = (n: string) => cluster.get<NodeImage>(resources.nodeImages, n);
  return { cluster, run, ni, queue, clock, events, reconcile, ctx, requests };
}

test('a node Ready for 30 s gets a NodeImage with its labels; a younger one is looked at again when due', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('old', T0 - 60_000));
  w.cluster.seed(resources.nodes, node('young', T0 - 10_000));
  await w.run();
  assert.deepEqual(w.ni('old')?.metadata?.labels, { zone: 'a' });
  assert.equal(w.ni('young'), undefined);
  assert.equal(w.queue.delayed.get('young'), 20_000);
});

test('a NodeImage goes with its node, unless labelled fake', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('n1', T0 - 60_000));
  await w.run();
  w.cluster.seed<NodeImage>(resources.nodeImages, { metadata: { name: 'fake', labels: { 'apps.kruise.io/fake-nodeimage': 'true' } }, spec: {} });
  await w.cluster.rest.delete(resources.nodes, { name: 'n1' });
  await w.run();
  assert.equal(w.ni('n1'), undefined);
  assert.ok(w.ni('fake'));
});

test('tags owned only by a job that is gone are dropped; a job missing from the cache is confirmed by GET', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('n1', T0 - 60_000));
  const alive = w.cluster.seed<ImagePullJob>(resources.imagePullJobs, { metadata: { name: 'alive', namespace: 'ns' }, spec: { image: 'x', completionPolicy: {} } });
  const ref = (name: string, uid: string) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'ns', name, uid });
  const tag = (t: string, refs: ReturnType<typeof ref>[]) => ({ tag: t, createdAt: iso(T0), version: 0, pullPolicy: { ttlSecondsAfterFinished: 300 }, ownerReferences: refs });
  w.cluster.seed<NodeImage>(resources.nodeImages, { metadata: { name: 'n1', labels: { zone: 'a' } },
    spec: { images: { app: { tags: [tag('gone', [ref('gone', 'uid-gone')]), tag('kept', [ref('alive', alive.metadata!.uid!), ref('gone', 'uid-gone')])] } } } });
  await w.run();
  const tags = w.ni('n1')!.spec!.images!.app!.tags;
  assert.deepEqual(tags.map((t) => [t.tag, t.ownerReferences!.map((r) => r.name)]), [['kept', ['alive']]]);
  assert.ok(w.cluster.calls.some((c) => c.method === 'GET' && c.plural === 'imagepulljobs' && c.name === 'gone'), 'the cache miss was confirmed');
});

test('a tag the daemon never answered for is failed after 10 minutes, with events on its owner and the NodeImage', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('n1', T0 - 3600_000));
  const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'ns', name: 'j', uid: 'uid-j' };
  w.cluster.seed<ImagePullJob>(resources.imagePullJobs, { metadata: { name: 'j', namespace: 'ns', uid: 'uid-j' }, spec: { image: 'x', completionPolicy: {} } });
  w.cluster.seed<NodeImage>(resources.nodeImages, { metadata: { name: 'n1', labels: { zone: 'a' } },
    spec: { images: { nginx: { tags: [{ tag: '1', createdAt: iso(T0 - 601_000), version: 0, pullPolicy: { ttlSecondsAfterFinished: 300 }, ownerReferences: [owner] }] } } } });
  await w.run();
  const st = w.ni('n1')!.status!;
  assert.deepEqual([st.failed, st.desired, st.imageStatuses?.nginx?.tags[0]?.message], [1, 1, 'node has not responded for a long time']);
  const msg = 'Failed to pull image nginx:1 on node n1 for node has not responded for a long time';
  assert.deepEqual(w.events.map((e) => [e.kind, e.name, e.type, e.reason, e.message]), [
    ['ImagePullJob', 'j', 'Warning', 'PullImageFailed', msg], ['NodeImage', 'n1', 'Warning', 'PullImageFailed', msg]]);
});

test('deleting a pull-secret copy in kruise-daemon-config removes the refs to it', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('n1', T0 - 60_000));
  w.cluster.seed(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'reg-abcde', namespace: 'kruise-daemon-config' } });
  w.cluster.seed<NodeImage>(resources.nodeImages, { metadata: { name: 'n1', labels: { zone: 'a' } }, spec: { images: { app: {
    tags: [{ tag: '1', createdAt: iso(T0), version: 0, pullPolicy: { ttlSecondsAfterFinished: 300 } }],
    pullSecrets: [{ namespace: 'kruise-daemon-config', name: 'reg-abcde' }, { namespace: 'default', name: 'elsewhere' }] } } } });
  await w.run();
  assert.equal(w.ni('n1')!.spec!.images!.app!.pullSecrets!.length, 2);
  await w.cluster.rest.delete(resources.secrets, { namespace: 'kruise-daemon-config', name: 'reg-abcde' });
  await w.run();
  assert.deepEqual(w.ni('n1')!.spec!.images!.app!.pullSecrets, [{ namespace: 'default', name: 'elsewhere' }]);
});

test('only Secrets of kruise-daemon-config are cached (review H2)', () => {
  const w = world();
  assert.deepEqual(w.requests.filter((r) => r.plural === 'secrets'), [{ plural: 'secrets', namespace: 'kruise-daemon-config' }]);
});
