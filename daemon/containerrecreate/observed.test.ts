import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CriError } from '../cri/errors.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { parseContainerId, readPodContainers } from './observed.js';

const labels = (uid: string, name: string) => ({ 'io.kubernetes.pod.uid': uid, 'io.kubernetes.container.name': name });

test('the pod\'s containers come newest first, with kubelet\'s restart count and the runtime-qualified ID; only the newest of a name is inspected', async () => {
  const rt = new FakeRuntime();
  rt.addContainer({ id: 'old', name: 'app', state: 'exited', createdAtNs: 1_000_000_000n, startedAtNs: 1_500_000_000n, labels: labels('u1', 'app'), annotations: { 'io.kubernetes.container.restartCount': '0' } });
  rt.addContainer({ id: 'new', name: 'app', createdAtNs: 3_000_000_000n, startedAtNs: 3_200_000_000n, labels: labels('u1', 'app'), annotations: { 'io.kubernetes.container.restartCount': '1' } });
  rt.addContainer({ id: 'made', name: 'side', state: 'created', createdAtNs: 2_000_000_000n, labels: labels('u1', 'side'), annotations: { 'io.kubernetes.container.restartCount': 'x' } });
  rt.addContainer({ id: 'other', name: 'app', labels: labels('u2', 'app') });
  const got = await readPodContainers(rt, 'containerd', 'u1');
  assert.deepEqual(got, [
    { id: 'containerd://new', criId: 'new', name: 'app', state: 'running', createdAtNs: 3_000_000_000n, startedAtMs: 3_200, restartCount: 1 },
    { id: 'containerd://made', criId: 'made', name: 'side', state: 'created', createdAtNs: 2_000_000_000n, restartCount: 0 },
    { id: 'containerd://old', criId: 'old', name: 'app', state: 'exited', createdAtNs: 1_000_000_000n, restartCount: 0 },
  ]);
  assert.deepEqual(rt.callsOf('containerStatus').map((c) => c[0]).sort(), ['made', 'new']);
  assert.deepEqual(rt.callsOf('listContainers'), [[{ labelSelector: { 'io.kubernetes.pod.uid': 'u1' } }]]);
});

test('a container removed between the list and its status is left out; other status errors propagate', async () => {
  const rt = new FakeRuntime();
  rt.addContainer({ id: 'a', name: 'app', labels: labels('u1', 'app') });
  rt.failNext('containerStatus', new CriError('not-found', 'RuntimeService/ContainerStatus', 'gone'));
  assert.deepEqual(await readPodContainers(rt, 'containerd', 'u1'), []);
  rt.failNext('containerStatus', new CriError('unavailable', 'RuntimeService/ContainerStatus', 'down'));
  await assert.rejects(readPodContainers(rt, 'containerd', 'u1'), /down/);
});

test('parseContainerId', () => {
  assert.deepEqual(parseContainerId('containerd://abc'), { runtime: 'containerd', id: 'abc' });
  assert.deepEqual(parseContainerId('cri-o://x://y'), { runtime: 'cri-o', id: 'x://y' });
  for (const bad of ['abc', '://abc', 'containerd://', '', undefined]) assert.equal(parseContainerId(bad), undefined, String(bad));
});
