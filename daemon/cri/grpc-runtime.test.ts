// grpc-runtime.ts against an in-process gRPC server on a unix socket, speaking our cri.proto: checks what
// goes on the wire and how failures come back, without a container runtime.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { CRI_PROTO_PATH, connectCri, type CriConnection } from './grpc-runtime.js';
import { isCriError } from './errors.js';

type Handler = (req: any) => any;
const received: { method: string; req: any }[] = [];
const cancelled: string[] = [];
const handlers: Record<string, Handler> = {};
const notFound = (what: string) => Object.assign(new Error(what), { code: grpc.status.NOT_FOUND, details: `${what}: not found` });

function service(def: grpc.ServiceDefinition): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(def)) {
    impl[name] = ((call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) => {
      const method = name;
      received.push({ method, req: call.request });
      call.on('cancelled', () => cancelled.push(method));
      const h = handlers[method];
      if (!h) return cb({ code: grpc.status.UNIMPLEMENTED, details: method });
      try {
        const res = h(call.request);
        if (res !== 'hang') cb(null, res);
      } catch (err) { cb(err as grpc.ServiceError); }
    }) as grpc.UntypedHandleCall;
  }
  return impl;
}

let dir: string;
let server: grpc.Server;
let cri: CriConnection;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cri-grpc-'));
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(CRI_PROTO_PATH, { keepCase: false, longs: String, enums: String, defaults: true }));
  const v1 = (pkg.runtime as any).v1;
  server = new grpc.Server();
  server.addService(v1.RuntimeService.service, service(v1.RuntimeService.service));
  server.addService(v1.ImageService.service, service(v1.ImageService.service));
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${join(dir, 'cri.sock')}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  cri = connectCri({ endpoint: join(dir, 'cri.sock'), defaultTimeoutMs: 2_000 });
});

after(() => {
  cri.close();
  server.forceShutdown();
  rmSync(dir, { recursive: true, force: true });
});

const lastRequest = (method: string) => received.filter((r) => r.method === method).at(-1)?.req;

test('Version sends the version string kruise-daemon sends and returns the runtime name', async () => {
  handlers.Version = () => ({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: '1.6.20', runtimeApiVersion: 'v1' });
  assert.equal((await cri.runtime.version()).runtimeName, 'containerd');
  assert.equal(lastRequest('Version').version, '0.1.0');
});

test('ListContainers sends the label selector and state filter, and int64 timestamps arrive as exact bigints', async () => {
  handlers.ListContainers = () => ({
    containers: [{ id: 'c1', podSandboxId: 's1', metadata: { name: 'app', attempt: 2 }, state: 'CONTAINER_RUNNING', createdAt: '1764684000123456789', labels: { a: 'b' } }],
  });
  const got = await cri.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': 'u1' }, state: 'running' });
  assert.deepEqual(lastRequest('ListContainers').filter.labelSelector, { 'io.kubernetes.pod.uid': 'u1' });
  assert.equal(lastRequest('ListContainers').filter.state.state, 'CONTAINER_RUNNING');
  assert.equal(got[0].createdAtNs, 1764684000123456789n);
  assert.deepEqual([got[0].name, got[0].attempt, got[0].state], ['app', 2, 'running']);
});

test('StopContainer of a container the runtime no longer knows resolves (CRI: stop is idempotent)', async () => {
  handlers.StopContainer = (req) => { throw notFound(`container ${req.containerId}`); };
  await cri.runtime.stopContainer('gone', 30);
  assert.equal(lastRequest('StopContainer').timeout, '30');
});

test('StopContainer failing for another reason rejects with the mapped kind', async () => {
  handlers.StopContainer = () => { throw Object.assign(new Error('x'), { code: grpc.status.INTERNAL, details: 'shim died' }); };
  await assert.rejects(cri.runtime.stopContainer('c1', 1), (e) => isCriError(e, 'internal') && e.method === 'RuntimeService/StopContainer');
});

test('ContainerStatus of an unknown container is not-found', async () => {
  handlers.ContainerStatus = (req) => { throw notFound(`container ${req.containerId}`); };
  await assert.rejects(cri.runtime.containerStatus('gone'), (e) => isCriError(e, 'not-found'));
});

test('a runtime that never answers fails with deadline-exceeded after the per-call timeout', async () => {
  handlers.ImageFsInfo = () => 'hang';
  const t0 = Date.now();
  await assert.rejects(cri.images.imageFsInfo({ timeoutMs: 150 }), (e) => isCriError(e, 'deadline-exceeded'));
  assert.ok(Date.now() - t0 < 1_500, `took ${Date.now() - t0} ms`);
});

test('aborting a pull cancels the RPC on the wire and rejects as canceled', { timeout: 10_000 }, async () => {
  handlers.PullImage = () => 'hang';
  const stop = new AbortController();
  const pull = cri.images.pullImage({ image: 'reg/app:v1' }, { timeoutMs: 30_000, signal: stop.signal });
  while (!received.some((r) => r.method === 'PullImage')) await new Promise((r) => setTimeout(r, 10));
  stop.abort();
  await assert.rejects(pull, (e) => isCriError(e, 'canceled'));
  while (!cancelled.includes('PullImage')) await new Promise((r) => setTimeout(r, 10));
  await assert.rejects(cri.images.pullImage({ image: 'reg/app:v1' }, { signal: stop.signal }), (e) => isCriError(e, 'canceled'), 'an already aborted signal sends nothing');
});

test('PullImage sends credentials and sandbox annotations; an empty ImageStatus means absent', async () => {
  handlers.PullImage = () => ({ imageRef: 'sha256:abc' });
  handlers.ImageStatus = () => ({});
  const ref = await cri.images.pullImage({
    image: 'reg/app:v1',
    auth: { username: 'u', password: 'p' },
    sandboxConfig: { annotations: { 'apps.kruise.io/pulling-image-by': 'kruise-daemon' } },
  });
  assert.equal(ref, 'sha256:abc');
  const req = lastRequest('PullImage');
  assert.deepEqual([req.image.image, req.auth.username, req.auth.password], ['reg/app:v1', 'u', 'p']);
  assert.deepEqual(req.sandboxConfig.annotations, { 'apps.kruise.io/pulling-image-by': 'kruise-daemon' });
  assert.equal(await cri.images.imageStatus('reg/app:v1'), null);
});

test('ExecSync returns output and a non-zero exit code as a result', async () => {
  handlers.ExecSync = () => ({ stdout: Buffer.from('A=1\n'), stderr: Buffer.alloc(0), exitCode: 3 });
  const r = await cri.runtime.execSync('c1', ['env'], 3);
  assert.deepEqual([r.stdout.toString(), r.exitCode], ['A=1\n', 3]);
  assert.deepEqual(lastRequest('ExecSync').cmd, ['env']);
});

test('a socket nobody listens on is unavailable, which is transient', async () => {
  const nowhere = connectCri({ endpoint: join(dir, 'missing.sock'), defaultTimeoutMs: 500 });
  try {
    await assert.rejects(nowhere.runtime.version(), (e) => isCriError(e) && (e.kind === 'unavailable' || e.kind === 'deadline-exceeded') && e.transient);
  } finally {
    nowhere.close();
  }
});
