// The daemon's image puller (daemon/imagepuller) against a real containerd 1.6 pulling from loopback registries:
// success, htpasswd auth through dockerconfigjson Secrets, a missing tag retried to Failed, and a registry that
// accepts TCP but never answers (per-attempt timeout). Status writes go to an in-memory stand-in for now.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { NodeImage, NodeImageStatus } from '../shared/api/node-image.js';
import { normalizeImageRef } from '../shared/domain/image-ref.js';
import { connectCri, type CriConnection } from '../daemon/cri/grpc-runtime.js';
import type { PullEvent } from '../daemon/imagepuller/events.js';
import { ImagePuller } from '../daemon/imagepuller/puller.js';
import { realClock } from '../daemon/imagepuller/pull-worker.js';
import type { SecretLike } from '../daemon/imagepuller/secrets.js';
import { startRuntimeEnv, trustRegistry, type RuntimeEnv } from './harness/runtime/index.js';

const RIGHT = { username: 'puller', password: 'right-Pw-7f3a9c' };
const WRONG_PASSWORD = 'wrong-Pw-d41e88';

const dockerSecret = (host: string, username: string, password: string): SecretLike => ({
  metadata: { namespace: 'kruise-daemon-config', name: 'regcred' }, type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [host]: { username, password } } })).toString('base64') },
});

function nodeImageFor(ref: string, policy: { timeoutSeconds?: number; backoffLimit?: number } = {}, withSecret = false): { ni: NodeImage; name: string; tag: string } {
  const { name, tag } = normalizeImageRef(ref);
  const ni: NodeImage = {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'e2e-node', uid: 'ni-e2e' },
    spec: { images: { [name]: { tags: [{ tag, version: 0, pullPolicy: { ttlSecondsAfterFinished: 300, ...policy } }], ...(withSecret ? { pullSecrets: [{ namespace: 'kruise-daemon-config', name: 'regcred' }] } : {}) } } },
  };
  return { ni, name, tag };
}

function allLogs(dir: string): string {
  let out = '';
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.log')) out += readFileSync(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

describe('image puller on real containerd', { timeout: 90_000 }, () => {
  let env: RuntimeEnv;
  let cri: CriConnection;
  let silent: Server;
  const sockets: Socket[] = [];
  let secrets: SecretLike[] = [];
  const events: PullEvent[] = [];
  const logLines: string[] = [];

  const newPuller = () => new ImagePuller({
    images: cri.images, clock: realClock, maxConcurrentPulls: 2,
    getPullSecrets: async () => secrets,
    emitEvent: (e) => events.push(e),
    writeStatus: async () => undefined,
    log: { info: (o, m) => logLines.push(`${m} ${JSON.stringify(o)}`), warn: (o, m) => logLines.push(`${m} ${JSON.stringify(o)}`) },
  });
  /** One sync, wait for the pulls, one more sync with the status the first one produced. */
  const pullToEnd = async (ni: NodeImage): Promise<NodeImageStatus> => {
    const puller = newPuller();
    const first = await puller.sync(ni);
    await puller.settled();
    return (await puller.sync({ ...ni, status: first.status })).status;
  };

  before(async () => {
    env = await startRuntimeEnv();
    cri = connectCri({ endpoint: env.containerd.socket, defaultTimeoutMs: 10_000, pullTimeoutMs: 30_000 });
    silent = createServer((s) => { sockets.push(s); s.on('error', () => undefined); });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
    cri?.close();
    await env?.stop();
  });

  test('a umoci-built image is pulled to Succeeded with the runtime image ID and a PullImageSucceed event', async () => {
    const ref = await env.pushTestImage({ name: 'kruise-ts/warm', tag: 'v1', cmd: ['sleep', '3600'] });
    const { ni, name, tag } = nodeImageFor(ref);
    const t0 = performance.now();
    const status = await pullToEnd(ni);
    console.log(`# puller sync-to-Succeeded of ${ref} took ${(performance.now() - t0).toFixed(1)} ms`);
    const t = status.imageStatuses?.[name]?.tags[0];
    assert.equal(t?.phase, 'Succeeded', JSON.stringify(status));
    assert.equal(t.progress, 100);
    const img = await cri.images.imageStatus(ref);
    assert.equal(t.imageID, `${name}@${img!.id}`);
    assert.deepEqual([status.desired, status.succeeded, status.failed], [1, 1, 0]);
    const ev = events.find((e) => e.reason === 'PullImageSucceed' && e.message.startsWith(`Image ${name}:${tag}, ecalpsedTime `));
    assert.ok(ev, JSON.stringify(events));
  });

  test('a private registry: the right dockerconfigjson secret succeeds, a wrong one fails clearly and leaks nowhere', async () => {
    const secured = await env.addRegistry(RIGHT);
    const ref = await env.pushTestImage({ name: 'private/app', tag: 'v1', cmd: ['sleep', '3600'] }, secured);

    secrets = [dockerSecret(secured.host, RIGHT.username, WRONG_PASSWORD)];
    const wrong = nodeImageFor(ref, { backoffLimit: 0 }, true);
    const failed = await pullToEnd(wrong.ni);
    const ft = failed.imageStatuses?.[wrong.name]?.tags[0];
    assert.equal(ft?.phase, 'Failed', JSON.stringify(failed));
    assert.match(ft.message!, /401|unauthorized/i);
    console.log(`# wrong-credential message: ${ft.message}`);

    secrets = [dockerSecret(secured.host, RIGHT.username, RIGHT.password)];
    const right = nodeImageFor(ref, { backoffLimit: 0 }, true);
    const ok = await pullToEnd(right.ni);
    assert.equal(ok.imageStatuses?.[right.name]?.tags[0].phase, 'Succeeded', JSON.stringify(ok));

    const everywhere = [JSON.stringify(failed), JSON.stringify(ok), JSON.stringify(events), logLines.join('\n'), allLogs(env.dir)].join('\n');
    for (const secret of [WRONG_PASSWORD, RIGHT.password, Buffer.from(`${RIGHT.username}:${RIGHT.password}`).toString('base64')]) {
      assert.ok(!everywhere.includes(secret), 'a credential appears in a status, event or log');
    }
    secrets = [];
  });

  test('a tag the registry does not have is retried and ends Failed with the not-found message', async () => {
    const ref = `${env.registry.host}/kruise-ts/warm:no-such-tag`;
    const { ni, name } = nodeImageFor(ref, { backoffLimit: 1 });
    const t0 = performance.now();
    const status = await pullToEnd(ni);
    const ms = performance.now() - t0;
    const t = status.imageStatuses?.[name]?.tags[0];
    assert.equal(t?.phase, 'Failed', JSON.stringify(status));
    assert.match(t.message!, new RegExp(`^Failed to pull image reference "${ref.replace(/[.]/g, '\\.')}": .*not found`));
    assert.ok(ms >= 3_000, `2 attempts with 1 s + 2 s backoff took only ${ms} ms`);
    assert.ok(events.some((e) => e.reason === 'PullImageFailed' && e.message === `Image ${ref} ${t.message}`));
  });

  test('a registry that accepts TCP and never answers fails each attempt at timeoutSeconds', async () => {
    const { port } = silent.address() as { port: number };
    const host = `127.0.0.1:${port}`;
    trustRegistry(env.containerd.dir, host);
    const ref = `${host}/kruise-ts/slow:v1`;
    const { ni, name } = nodeImageFor(ref, { timeoutSeconds: 2, backoffLimit: 1 });
    const t0 = performance.now();
    const status = await pullToEnd(ni);
    const ms = performance.now() - t0;
    console.log(`# silent registry: 2 attempts of 2 s (+1 s, +2 s backoff) took ${ms.toFixed(0)} ms; ${sockets.length} connections`);
    const t = status.imageStatuses?.[name]?.tags[0];
    assert.equal(t?.phase, 'Failed', JSON.stringify(status));
    assert.equal(t.message, `pulling image ${ref} is canceled`);
    assert.ok(ms >= 7_000 && ms < 15_000, `${ms} ms`);
    assert.ok(sockets.length >= 2, `containerd connected ${sockets.length} times`);
  });
});
