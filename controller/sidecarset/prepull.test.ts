import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { kubelet, makePod, makeSet, withImage } from './fixtures.js';
import { newImages, planPrePull, PREPULL_WAIT_MS } from './prepull.js';

const v1 = makeSet();
const v2 = withImage(v1, 'busybox:2.0');
const on = (node: string, name: string, pod: Pod): Pod => ({ ...pod, metadata: { ...pod.metadata, name }, spec: { ...pod.spec!, nodeName: node } });
const pods = [on('n1', 'a', kubelet(makePod('a', [v1]))), on('n2', 'b', kubelet(makePod('b', [v1]))), on('n3', 'c', kubelet(makePod('c', [v1])))];
const nodeImage = (name: string, pulled: string[] = []): NodeImage => ({
  metadata: { name }, spec: {},
  status: { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0,
    imageStatuses: Object.fromEntries(pulled.map((ref) => { const [n, t] = ref.split(':'); return [n!, { tags: [{ tag: t!, phase: 'Succeeded' }] }]; })) },
});

test('newImages: the normalised images the update brings, none for a pod already running them', () => {
  assert.deepEqual(newImages(v2, pods[0]!), [{ name: 'busybox', tag: '2.0' }]);
  assert.deepEqual(newImages(v1, pods[0]!), []);
});

test('the batch waits for its nodes and the next batch is pulled for too; pulled nodes and nodes without a NodeImage go at once', () => {
  const nis: Record<string, NodeImage> = { n1: nodeImage('n1', ['busybox:2.0']), n2: nodeImage('n2'), n3: nodeImage('n3') };
  const plan = planPrePull(v2, [pods[0]!, pods[1]!, { ...pods[2]!, spec: { ...pods[2]!.spec!, nodeName: 'n4' } }], [pods[2]!], {
    nodeImage: (n) => nis[n], waitingSince: () => 1_000, now: 2_000,
  });
  assert.deepEqual(plan.ready.map((p) => p.metadata!.name), ['a', 'c'], 'a: pulled; c on n4: no NodeImage');
  assert.deepEqual(plan.waiting.map((p) => p.metadata!.name), ['b']);
  assert.deepEqual(plan.tags, [{ node: 'n2', image: { name: 'busybox', tag: '2.0' } }, { node: 'n3', image: { name: 'busybox', tag: '2.0' } }]);
});

test('a pod held back PREPULL_WAIT_MS goes without the image', () => {
  const plan = planPrePull(v2, [pods[1]!], [], { nodeImage: (n) => nodeImage(n), waitingSince: () => 0, now: PREPULL_WAIT_MS });
  assert.deepEqual(plan.timedOut.map((p) => p.metadata!.name), ['b']);
  assert.deepEqual(plan.waiting, []);
});

test('newImages: a native sidecar\'s new image is pulled for too (kruise-ts updates it in place)', () => {
  const native = { name: 'native', image: 'busybox:1.0', command: ['sleep', '1d'], restartPolicy: 'Always' };
  const n1 = makeSet({ containers: [], initContainers: [native] });
  const n2 = makeSet({ containers: [], initContainers: [{ ...native, image: 'envoy:1.30' }] });
  const pod = kubelet(makePod('a', [n1]));
  assert.deepEqual(newImages(n2, pod), [{ name: 'envoy', tag: '1.30' }]);
  assert.deepEqual(newImages(n1, pod), []);
});
