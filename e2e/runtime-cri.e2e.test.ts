// The daemon's CRI client (daemon/cri/grpc-runtime.ts) against a real containerd 1.6 + runc, with images
// pulled from loopback registries. Containers are created the way kubelet creates them (KubeletCri) so the
// daemon-side calls see kubelet-shaped labels.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { connectCri, type CriConnection } from '../daemon/cri/grpc-runtime.js';
import { isCriError } from '../daemon/cri/errors.js';
import { KubeletCri, startRuntimeEnv, type RuntimeEnv, type TestPod } from './harness/runtime/index.js';

describe('CRI client on real containerd', { timeout: 90_000 }, () => {
  let env: RuntimeEnv;
  let cri: CriConnection;
  let kubelet: KubeletCri;
  let appImage: string;

  before(async () => {
    env = await startRuntimeEnv();
    cri = connectCri({ endpoint: env.containerd.socket, defaultTimeoutMs: 10_000, pullTimeoutMs: 30_000 });
    kubelet = new KubeletCri(env.containerd.socket, `${env.containerd.dir}/logs`);
    appImage = await env.pushTestImage({ name: 'kruise-ts/app', tag: 'v1', cmd: ['sleep', '3600'], files: { '/etc/app.conf': 'hello\n' } });
  });

  after(async () => {
    kubelet?.close();
    cri?.close();
    await env?.stop();
  });

  test('Version reports containerd speaking runtime API v1', async () => {
    const v = await cri.runtime.version();
    assert.equal(v.runtimeName, 'containerd');
    assert.equal(v.runtimeApiVersion, 'v1');
    assert.match(v.runtimeVersion, /^1\./);
  });

  test('ImageFsInfo answers with the image filesystem under our private root', async () => {
    const fs = await cri.images.imageFsInfo();
    assert.ok(fs.imageFilesystems.length >= 1);
    assert.ok(fs.imageFilesystems[0].mountpoint.startsWith(env.containerd.dir), fs.imageFilesystems[0].mountpoint);
    assert.ok(fs.imageFilesystems[0].timestampNs > 0n);
  });

  test('a pulled image is visible through ImageStatus and ListImages', async () => {
    assert.equal(await cri.images.imageStatus(appImage), null, 'image present before the pull');
    const t0 = performance.now();
    const ref = await cri.images.pullImage({ image: appImage, sandboxConfig: { annotations: { 'apps.kruise.io/pulling-image-by': 'kruise-daemon' } } });
    const ms = performance.now() - t0;
    console.log(`# pull of ${appImage} took ${ms.toFixed(1)} ms`);
    assert.match(ref, /^sha256:[0-9a-f]{64}$/);
    const status = await cri.images.imageStatus(appImage);
    assert.equal(status?.id, ref);
    assert.ok(status!.size > 0);
    const listed = (await cri.images.listImages()).find((i) => i.id === ref);
    assert.ok(listed, 'pulled image missing from ListImages');
    assert.ok(listed.repoTags.includes(appImage), JSON.stringify(listed.repoTags));
    const repository = appImage.slice(0, appImage.lastIndexOf(':'));
    assert.ok(listed.repoDigests.some((d) => d.startsWith(`${repository}@sha256:`)), JSON.stringify(listed.repoDigests));
  });

  test('pulling a tag the registry does not have fails with not-found', async () => {
    await assert.rejects(cri.images.pullImage({ image: `${env.registry.host}/kruise-ts/app:no-such-tag` }), (e) => isCriError(e, 'not-found'));
  });

  test('a pull from a registry with htpasswd auth succeeds with the right credentials and fails typed with wrong ones', async () => {
    const auth = { username: 'puller', password: 's3cret-pw' };
    const secured = await env.addRegistry(auth);
    const image = await env.pushTestImage({ name: 'private/app', tag: 'v1', cmd: ['sleep', '3600'] }, secured);

    await assert.rejects(cri.images.pullImage({ image, auth: { username: 'puller', password: 'wrong' } }), (e) => {
      assert.ok(isCriError(e, 'unauthenticated'), `expected unauthenticated, got ${String(e)}`);
      assert.equal(e.method, 'ImageService/PullImage');
      assert.ok(!e.message.includes('wrong'), 'error message leaks the password');
      return true;
    });
    await assert.rejects(cri.images.pullImage({ image }), (e) => isCriError(e, 'unauthenticated'));

    const t0 = performance.now();
    const ref = await cri.images.pullImage({ image, auth });
    console.log(`# authenticated pull of ${image} took ${(performance.now() - t0).toFixed(1)} ms`);
    assert.equal((await cri.images.imageStatus(image))?.id, ref);
  });

  test('kubelet-labelled containers are found by pod uid, inspected, exec-ed into and stopped idempotently', async () => {
    const pod: TestPod = { name: 'web-0', namespace: 'default', uid: randomUUID() };
    const other: TestPod = { name: 'web-1', namespace: 'default', uid: randomUUID() };
    await cri.images.pullImage({ image: appImage });
    const sandbox = await kubelet.runPodSandbox(pod);
    const appId = await kubelet.startContainer(sandbox, pod, { name: 'app', image: appImage, command: ['sleep', '3600'] });
    const sidecarId = await kubelet.startContainer(sandbox, pod, { name: 'sidecar', image: appImage, command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'] });
    const otherSandbox = await kubelet.runPodSandbox(other);
    const otherId = await kubelet.startContainer(otherSandbox, other, { name: 'app', image: appImage, command: ['sleep', '3600'] });

    const mine = await cri.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': pod.uid } });
    assert.deepEqual(mine.map((c) => c.id).sort(), [appId, sidecarId].sort());
    assert.ok(!mine.some((c) => c.id === otherId));
    const app = mine.find((c) => c.id === appId)!;
    assert.equal(app.name, 'app');
    assert.equal(app.state, 'running');
    assert.equal(app.podSandboxId, sandbox);
    assert.equal(app.labels['io.kubernetes.container.name'], 'app');
    assert.equal(app.labels['io.kubernetes.pod.name'], 'web-0');
    assert.equal(app.labels['io.kubernetes.pod.namespace'], 'default');
    assert.ok(app.createdAtNs > 1_600_000_000_000_000_000n, String(app.createdAtNs));

    const byId = await cri.runtime.listContainers({ id: sidecarId });
    assert.deepEqual(byId.map((c) => c.name), ['sidecar']);

    const status = await cri.runtime.containerStatus(appId);
    assert.equal(status.state, 'running');
    assert.equal(status.name, 'app');
    assert.equal(status.annotations['io.kubernetes.container.restartCount'], '0');
    assert.ok(status.startedAtNs >= status.createdAtNs);

    const env0 = await cri.runtime.execSync(appId, ['env'], 3);
    assert.equal(env0.exitCode, 0);
    assert.match(env0.stdout.toString(), /^PATH=\/bin$/m);
    const cat = await cri.runtime.execSync(appId, ['cat', '/etc/app.conf'], 3);
    assert.equal(cat.stdout.toString(), 'hello\n');
    const failing = await cri.runtime.execSync(appId, ['sh', '-c', 'echo oops >&2; exit 3'], 3);
    assert.deepEqual([failing.exitCode, failing.stderr.toString()], [3, 'oops\n']);

    await cri.runtime.stopContainer(sidecarId, 10);
    const stopped = await cri.runtime.containerStatus(sidecarId);
    assert.equal(stopped.state, 'exited');
    assert.equal(stopped.exitCode, 0, 'sidecar should exit 0 from its TERM trap');
    await cri.runtime.stopContainer(sidecarId, 10);
    await cri.runtime.stopContainer('0123456789abcdef-no-such-container', 1);

    const running = await cri.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': pod.uid }, state: 'running' });
    assert.deepEqual(running.map((c) => c.id), [appId]);
    await assert.rejects(cri.runtime.containerStatus('0123456789abcdef-no-such-container'), (e) => isCriError(e, 'not-found'));
  });
});
