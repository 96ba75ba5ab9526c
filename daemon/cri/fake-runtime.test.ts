import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CriError, isCriError } from './errors.js';
import { FakeRuntime } from './fake-runtime.js';

test('label-selector listing returns only the pod’s containers and records the call', async () => {
  const cri = new FakeRuntime();
  cri.addContainer({ id: 'a', name: 'app', labels: { 'io.kubernetes.pod.uid': 'u1' } });
  cri.addContainer({ id: 'b', name: 'app', labels: { 'io.kubernetes.pod.uid': 'u2' } });
  const got = await cri.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': 'u1' } });
  assert.deepEqual(got.map((c) => c.id), ['a']);
  assert.deepEqual(cri.callsOf('listContainers'), [[{ labelSelector: { 'io.kubernetes.pod.uid': 'u1' } }]]);
});

test('stopping a running container exits it, and stopping it again or an unknown id succeeds', async () => {
  const cri = new FakeRuntime();
  cri.addContainer({ id: 'a' });
  await cri.stopContainer('a', 30);
  await cri.stopContainer('a', 30);
  await cri.stopContainer('nope', 30);
  assert.equal((await cri.containerStatus('a')).state, 'exited');
});

test('status of an unknown container is a not-found CriError', async () => {
  await assert.rejects(new FakeRuntime().containerStatus('x'), (e) => isCriError(e, 'not-found'));
});

test('an injected failure hits only the next call', async () => {
  const cri = new FakeRuntime();
  cri.failNext('pullImage', new CriError('unavailable', 'ImageService/PullImage', 'down'));
  await assert.rejects(cri.pullImage({ image: 'busybox:1' }), (e) => isCriError(e, 'unavailable'));
  const ref = await cri.pullImage({ image: 'busybox:1' });
  assert.equal((await cri.imageStatus('busybox:1'))?.id, ref);
});
