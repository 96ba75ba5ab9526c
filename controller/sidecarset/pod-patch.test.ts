import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { podUpdatePatch } from './pod-patch.js';

const pod = (): Pod => ({
  metadata: { name: 'a', namespace: 'default', resourceVersion: '7', labels: { app: 'x' }, annotations: { keep: '1', change: 'old', drop: 'gone' } },
  spec: { containers: [{ name: 'sidecar', image: 'busybox:1.0' }, { name: 'app', image: 'nginx:1' }], initContainers: [{ name: 'init', image: 'i:1' }] },
});

test('only what changed, images by container name, and the resourceVersion read as the precondition', () => {
  const before = pod();
  const after = structuredClone(before);
  after.metadata!.annotations = { keep: '1', change: 'new', added: 'x' };
  after.spec!.containers[0]!.image = 'busybox:2.0';
  assert.deepEqual(podUpdatePatch(before, after), {
    metadata: { resourceVersion: '7', annotations: { change: 'new', added: 'x', drop: null } },
    spec: { containers: [{ name: 'sidecar', image: 'busybox:2.0' }] },
  });
});

test('labels and init container images are patched the same way', () => {
  const before = pod();
  const after = structuredClone(before);
  after.metadata!.labels = {};
  after.spec!.initContainers![0]!.image = 'i:2';
  assert.deepEqual(podUpdatePatch(before, after), {
    metadata: { resourceVersion: '7', labels: { app: null } },
    spec: { initContainers: [{ name: 'init', image: 'i:2' }] },
  });
});

test('no change, no patch', () => {
  assert.equal(podUpdatePatch(pod(), pod()), null);
});
