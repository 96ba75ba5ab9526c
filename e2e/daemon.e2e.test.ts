// The node daemon as a real process (daemon/main.ts, kruise-daemon ServiceAccount token) against the real
// apiserver and a real containerd pulling from loopback registries: NodeImage status counts and events, pull
// Secrets from kruise-daemon-config, failures (credentials, missing tag, silent registry, activeDeadlineSeconds), a tag
// removed mid-pull, restarts of the daemon and of containerd in the middle of a pull, and a ContainerRecreateRequest
// executed by the same process (the test plays kubelet for the node's pod). The daemon runs from the
// sources through tsx until the restart test, which brings it back as the esbuild bundle (`npm run build:daemon`),
// so the bundle is tested too. Pulls that must stay in flight go through a gate proxy the test opens, so nothing
// depends on timing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { ImageTagStatus, NodeImage } from '../shared/api/node-image.js';
import { normalizeImageRef } from '../shared/domain/image-ref.js';
import { connectCri, type CriConnection } from '../daemon/cri/grpc-runtime.js';
import { loadKubeConfig } from '../shared/kube/client.js';
import { resources } from '../shared/kube/resources.js';
import { makeRest } from '../shared/kube/rest.js';
import { CriNodeStandin } from './harness/cri-node-standin.js';
import { buildBundles } from '../scripts/bundles.js';
import { ensureNode, REPO_ROOT, startDaemon, type NodeDaemon } from './harness/daemon.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { KubeletCri, startGateProxy, startRuntimeEnv, trustRegistry, type GateProxy, type Registry, type RuntimeEnv } from './harness/runtime/index.js';

const s = stack();
const NODE = 'kts-daemon-node-1';
const RIGHT = { username: 'puller', password: 'right-Pw-5c81e0' };
const WRONG_PASSWORD = 'wrong-Pw-a93d17';
const WAIT = 90_000;

type Policy = { timeoutSeconds?: number; backoffLimit?: number; activeDeadlineSeconds?: number };

function setImage(ref: string, tags: string[] | null, policy: Policy = {}, pullSecrets?: string[]): { name: string } {
  const { name } = normalizeImageRef(ref);
  const image = tags && {
    tags: tags.map((tag) => ({ tag, pullPolicy: { ttlSecondsAfterFinished: 600, ...policy } })),
    ...(pullSecrets ? { pullSecrets: pullSecrets.map((n) => ({ namespace: 'kruise-daemon-config', name: n })) } : {}),
  };
  kubectlOk(['patch', 'nodeimage', NODE, '--type=merge', '-p', JSON.stringify({ spec: { images: { [name]: image } } })]);
  return { name };
}

const nodeImage = () => getJson<NodeImage>(['nodeimage', NODE]);
const tagStatus = (ni: NodeImage, name: string, tag: string) => ni.status?.imageStatuses?.[name]?.tags.find((t) => t.tag === tag);
const events = () => getJson<{ items: CoreV1Event[] }>(['events', '-n', 'default', '--field-selector', `involvedObject.name=${NODE}`]).items;

function waitTag(name: string, tag: string, phase: string, timeoutMs = WAIT): Promise<ImageTagStatus> {
  return eventually(`${name}:${tag} ${phase}`, () => {
    const t = tagStatus(nodeImage(), name, tag);
    return t?.phase === phase ? t : undefined;
  }, timeoutMs);
}

describe('kruise-daemon on a real node runtime', { skip: typeof s === 'string' ? s : false, timeout: 600_000 }, () => {
  let env: RuntimeEnv;
  let secured: Registry;
  let daemon: NodeDaemon;
  let cri: CriConnection;
  let silent: Server;
  const held: Socket[] = [];
  const gates: GateProxy[] = [];
  const logDir = typeof s === 'string' ? '' : s.logDir;

  const bundle = join(REPO_ROOT, 'dist/daemon/main.mjs');
  const start = (opts: { bundle?: string } = {}) =>
    // Debug level: the credential leak check below then covers every line the daemon can write.
    startDaemon({ kubeconfig: process.env.KUBECONFIG!, nodeName: NODE, criEndpoint: env.containerd.socket, logDir, env: { LOG_LEVEL: 'debug' }, ...opts });
  const gate = async (upstream: Registry = env.registry) => {
    const g = await startGateProxy(upstream.host);
    trustRegistry(env.containerd.dir, g.host);
    gates.push(g);
    return g;
  };

  before(async () => {
    env = await startRuntimeEnv();
    secured = await env.addRegistry(RIGHT);
    cri = connectCri({ endpoint: env.containerd.socket, defaultTimeoutMs: 10_000 });
    silent = createServer((sock) => { held.push(sock); sock.on('error', () => undefined); });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    ensureNode(process.env.KUBECONFIG!, NODE);
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: NODE }, spec: {} }));
    // Secrets first: the daemon captures credentials when a pull starts, so its cache must already hold them.
    for (const [name, password] of [['regcred', RIGHT.password], ['badcred', WRONG_PASSWORD]]) {
      kubectlOk(['create', 'secret', 'docker-registry', name, '-n', 'kruise-daemon-config', `--docker-server=${secured.host}`, `--docker-username=${RIGHT.username}`, `--docker-password=${password}`]);
    }
    await buildBundles(REPO_ROOT, ['daemon']);
    daemon = await start();
  });

  after(async () => {
    await daemon?.stop();
    for (const g of gates) await g.close();
    for (const sock of held) sock.destroy();
    await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
    cri?.close();
    await env?.stop();
    kubectl(['delete', 'nodeimage', NODE, '--ignore-not-found']);
    kubectl(['delete', 'node', NODE, '--ignore-not-found']);
    kubectl(['delete', 'secret', 'regcred', 'badcred', '-n', 'kruise-daemon-config', '--ignore-not-found']);
  });

  test('a tag is pulled to Succeeded with the runtime image ID, consistent counts, an event and metrics', async () => {
    const ref = await env.pushTestImage({ name: 'daemon/ok', tag: 'v1', cmd: ['sleep', '3600'] });
    const { name } = setImage(ref, ['v1']);
    const t = await waitTag(name, 'v1', 'Succeeded');
    assert.equal(t.progress, 100);
    assert.equal(t.imageID, `${name}@${(await cri.images.imageStatus(ref))!.id}`);
    const ni = await eventually('counts', () => {
      const n = nodeImage();
      return n.status?.desired === 1 && n.status.succeeded === 1 ? n : undefined;
    });
    assert.deepEqual([ni.status!.failed, ni.status!.pulling, ni.status!.waiting], [0, 0, 0]);
    const ev = await eventually('PullImageSucceed event', () => events().find((e) => e.reason === 'PullImageSucceed' && e.message?.startsWith(`Image ${name}:v1, ecalpsedTime `)));
    assert.deepEqual([ev.type, ev.source?.component, ev.source?.host, ev.involvedObject.kind], ['Normal', 'kruise-daemon-imagepuller', NODE, 'NodeImage']);
    const metrics = await daemon.metrics();
    assert.match(metrics, /kruise_daemon_image_pull_duration_seconds_count\{result="succeeded"\} [1-9]/);
    assert.match(metrics, /controller_runtime_reconcile_total\{controller="imagepuller",result="requeue_after"\} [1-9]/);
  });

  test('a private registry: the dockerconfigjson Secret in kruise-daemon-config succeeds, a wrong one fails, and no credential leaks', async () => {
    const ref = await env.pushTestImage({ name: 'private/app', tag: 'v1', cmd: ['sleep', '3600'] }, secured);
    const good = setImage(ref, ['v1'], { backoffLimit: 0 }, ['regcred']);
    await waitTag(good.name, 'v1', 'Succeeded');
    const other = await env.pushTestImage({ name: 'private/other', tag: 'v1', cmd: ['sleep', '3600'] }, secured);
    const bad = setImage(other, ['v1'], { backoffLimit: 0 }, ['badcred']);
    const failed = await waitTag(bad.name, 'v1', 'Failed');
    assert.match(failed.message ?? '', /401|unauthorized/i);
    await eventually('PullImageFailed event', () => events().some((e) => e.reason === 'PullImageFailed' && e.message === `Image ${bad.name}:v1 ${failed.message}`));

    const everything = [
      daemon.log(), JSON.stringify(nodeImage()), JSON.stringify(getJson(['events', '-A'])),
      readFileSync(join(env.containerd.dir, 'containerd.log'), 'utf8'),
    ].join('\n');
    for (const secret of [RIGHT.password, WRONG_PASSWORD, ...[RIGHT.password, WRONG_PASSWORD].map((p) => Buffer.from(`${RIGHT.username}:${p}`).toString('base64'))]) {
      assert.ok(!everything.includes(secret), 'a credential appears in a daemon log, status or event');
    }
  });

  test('a tag the registry does not have is retried and ends Failed with the not-found message', async () => {
    const ref = `${env.registry.host}/daemon/ok:no-such-tag`;
    const { name } = setImage(ref, ['v1', 'no-such-tag'], { backoffLimit: 1 });
    const t = await waitTag(name, 'no-such-tag', 'Failed');
    assert.match(t.message ?? '', new RegExp(`^Failed to pull image reference "${ref.replace(/[.]/g, '\\.')}": .*not found`));
    assert.ok(Date.parse(t.completionTime!) - Date.parse(t.startTime!) >= 3_000, 'two attempts with 1 s and 2 s backoff');
    assert.equal(tagStatus(nodeImage(), name, 'v1')?.phase, 'Succeeded', 'the other tag of the image is unaffected');
  });

  test('a registry that accepts TCP and never answers fails the attempt at timeoutSeconds', async () => {
    const host = `127.0.0.1:${(silent.address() as { port: number }).port}`;
    trustRegistry(env.containerd.dir, host);
    const { name } = setImage(`${host}/daemon/slow:v1`, ['v1'], { timeoutSeconds: 2, backoffLimit: 0 });
    const t = await waitTag(name, 'v1', 'Failed');
    assert.equal(t.message, `pulling image ${name}:v1 is canceled`);
    assert.ok(held.length >= 1, 'containerd did connect');
  });

  test('activeDeadlineSeconds fails a pull still in flight', async () => {
    const g = await gate();
    const { name } = setImage(`${g.host}/daemon/ok:v1`, ['v1'], { activeDeadlineSeconds: 3 });
    const t = await waitTag(name, 'v1', 'Failed');
    assert.equal(t.message, 'pulling exceeds the activeDeadlineSeconds');
    assert.ok(g.accepted() >= 1, 'the pull reached the registry gate');
  });

  test('a tag removed while pulling is no longer reported, and its pull is cancelled in containerd', async () => {
    await env.pushTestImage({ name: 'daemon/two', tag: 'a', files: { '/a': 'a' } });
    await env.pushTestImage({ name: 'daemon/two', tag: 'b', files: { '/b': 'b' } });
    const g = await gate();
    const { name } = setImage(`${g.host}/daemon/two:a`, ['a', 'b']);
    await waitTag(name, 'a', 'Pulling');
    await eventually('both pulls held at the gate', () => g.held() >= 2);
    setImage(`${g.host}/daemon/two:a`, ['b']);
    await eventually('tag a gone from the status', () => {
      const ni = nodeImage();
      return !tagStatus(ni, name, 'a') && tagStatus(ni, name, 'b') ? true : undefined;
    });
    g.open();
    await waitTag(name, 'b', 'Succeeded');
    assert.equal(await cri.images.imageStatus(`${name}:a`), null, 'the cancelled pull of tag a did not complete');
    assert.ok(!events().some((e) => e.message?.startsWith(`Image ${name}:a`)), 'nothing reported for the removed tag');
  });

  test('a daemon restarted (as the bundle) in the middle of a pull finishes it and keeps finished tags as they were', async () => {
    await env.pushTestImage({ name: 'daemon/restart', tag: 'v1', files: { '/r': 'daemon' } });
    const finishedEarlier = tagStatus(nodeImage(), normalizeImageRef(`${env.registry.host}/daemon/ok:v1`).name, 'v1');
    assert.equal(finishedEarlier?.phase, 'Succeeded');
    const g = await gate();
    const { name } = setImage(`${g.host}/daemon/restart:v1`, ['v1']);
    await waitTag(name, 'v1', 'Pulling');
    await eventually('pull held at the gate', () => g.held() >= 1);
    const logged = daemon.log().length;
    await daemon.stop(10_000);
    assert.equal(daemon.exitCode(), 0, 'SIGTERM is a clean shutdown');
    daemon = await start({ bundle });
    g.open();
    const t = await waitTag(name, 'v1', 'Succeeded');
    assert.ok(t.imageID?.startsWith(`${name}@sha256:`));
    const adopted = tagStatus(nodeImage(), normalizeImageRef(`${env.registry.host}/daemon/ok:v1`).name, 'v1');
    assert.deepEqual(adopted, finishedEarlier, 'a tag finished before the restart is adopted, not pulled again');
    const newRun = daemon.log().slice(logged);
    assert.ok(!newRun.includes(`"image":"${normalizeImageRef(`${env.registry.host}/daemon/ok:v1`).name}:v1"`), 'no pull of the finished tag after the restart');
  });

  test('containerd restarted in the middle of a pull: the daemon reconnects and finishes it', async () => {
    await env.pushTestImage({ name: 'daemon/ctd', tag: 'v1', files: { '/c': 'containerd' } });
    const g = await gate();
    const { name } = setImage(`${g.host}/daemon/ctd:v1`, ['v1'], { backoffLimit: 6 });
    await waitTag(name, 'v1', 'Pulling');
    await eventually('pull held at the gate', () => g.held() >= 1);
    await env.containerd.restart();
    g.open();
    const t = await waitTag(name, 'v1', 'Succeeded');
    assert.ok(t.imageID?.startsWith(`${name}@sha256:`));
    assert.equal((await daemon.healthz()).status, 200);
  });

  test('a ContainerRecreateRequest for a pod on this node is executed by the daemon process and counted', async () => {
    const app = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
    const image = await env.pushTestImage({ name: 'kruise-ts/crr-app', tag: 'v1', cmd: app });
    await cri.images.pullImage({ image });
    const rest = makeRest(loadKubeConfig({ kubeconfig: process.env.KUBECONFIG }));
    const ns = 'e2e-daemon-crr';
    kubectlOk(['create', 'namespace', ns]);
    const kubelet = new KubeletCri(env.containerd.socket, `${env.containerd.dir}/logs`);
    const standin = new CriNodeStandin({ rest, kubelet, cri: cri.runtime, nodeName: NODE, image });
    await standin.start();
    try {
      const { ids } = await standin.createPod({ namespace: ns, name: 'app', containers: [{ name: 'app', command: app }], terminationGracePeriodSeconds: 5 });
      await rest.create(resources.containerRecreateRequests, {
        apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: { namespace: ns, name: 'recreate-app' },
        spec: { podName: 'app', containers: [{ name: 'app' }] },
      } as never);
      const crr = await eventually('CRR Completed', () => {
        const c = getJson<{ status?: { phase?: string; containerRecreateStates?: unknown } }>(['containerrecreaterequest', 'recreate-app', '-n', ns]);
        return c.status?.phase === 'Completed' ? c : undefined;
      }, WAIT);
      assert.deepEqual(crr.status?.containerRecreateStates, [{ name: 'app', phase: 'Succeeded', isKilled: true }]);
      assert.equal((await cri.runtime.containerStatus(ids.app!)).state, 'exited');
      assert.equal(standin.history(ns, 'app', 'app').length, 2, 'kubelet (the test) started the container again once');
      const killing = getJson<{ items: CoreV1Event[] }>(['events', '-n', ns, '--field-selector', 'involvedObject.name=app']).items.find((e) => e.reason === 'Killing');
      assert.deepEqual([killing?.source?.component, killing?.source?.host], ['kruise-daemon-crr', NODE]);
      assert.match(await daemon.metrics(), /kruise_daemon_crr_outcomes_total\{result="succeeded"\} 1/);
      assert.match((await daemon.healthz()).body, /^ok$/);
    } finally {
      await standin.stop();
      kubelet.close();
      kubectl(['delete', 'namespace', ns, '--wait=false']);
    }
  });
});
