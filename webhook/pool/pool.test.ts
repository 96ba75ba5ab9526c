// The admission pool with real worker threads (test-worker.ts through tsx): the deadline answer over real HTTPS while
// other reviews go on, the worker replaced, queued requests re-dispatched, snapshots pushed, RPCs to main and their
// timeout, a worker terminated mid-RPC leaving nothing behind on main, and bodies transferred rather than copied.
import assert from 'node:assert/strict';
import { request, Agent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { silentLogger } from '../../shared/log.js';
import { buildApp } from '../app.js';
import { createMetrics } from '../metrics.js';
import { review } from '../test-helpers.js';
import type { WebhookRoute } from '../admission/route.js';
import type { Answer } from '../admission/answer.js';
import { createPool, type PoolOptions } from './pool.js';
import type { RpcHost } from './rpc.js';
import type { SnapshotParts } from './snapshot.js';
import { GATE_DEFAULTS } from '../../shared/feature-gates.js';

const ENTRY = new URL('./test-worker.ts', import.meta.url);
const EMPTY: SnapshotParts = { sidecarSets: [], sidecarSetsSynced: true, namespaces: [], revisions: [], configMaps: [], workloadSpreads: [] };

function pool(o: Partial<PoolOptions> = {}) {
  const p = createPool({ size: 2, entry: ENTRY, deadlineMs: 400, rpcTimeoutMs: 300, workerData: { gates: GATE_DEFAULTS }, rpc: {}, snapshot: () => EMPTY, log: silentLogger(), respawnDelayMs: 50, ...o });
  after(() => p.close());
  return p;
}

/** The bytes in an ArrayBuffer of their own, as body.ts hands them over. */
const own = (s: string) => { const b = Buffer.from(s); const u = new Uint8Array(new ArrayBuffer(b.length)); u.set(b); return u; };
const bytesOf = (path: string, o: Parameters<typeof review>[0] = {}) => own(JSON.stringify(review({ uid: `uid${path}`, ...o })));
const responseOf = (a: Awaited<ReturnType<ReturnType<typeof pool>['run']>>) => {
  assert.ok('body' in a, `answered: ${JSON.stringify(a.outcome)}`);
  return JSON.parse(Buffer.from((a as Answer).body).toString()).response as { uid: string; allowed: boolean; status?: { code: number; message?: string } };
};

test('a handler that spins gets the 500 deadline answer over HTTPS while concurrent reviews on the same server succeed', { timeout: 120_000 }, async () => {
  const now = new Date();
  const ca = generateCA(now);
  const tls = generateServingCert(ca, 'localhost', now);
  const p = pool({ deadlineMs: 500 });
  await p.ready();
  const names = ['/allow', '/spin'];
  const routes: WebhookRoute[] = names.map((path) => ({ path, name: path.slice(1), handler: () => { throw new Error('the main thread must not run handlers'); } }));
  const app = buildApp({ log: silentLogger(), routes, metrics: createMetrics(), executor: p, tls });
  after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  after(() => agent.destroy());
  const post = (path: string, uid: string) => new Promise<{ status: number; ms: number; body: { response: { uid: string; allowed: boolean; status?: { code: number; message?: string } } } }>((resolve, reject) => {
    const body = JSON.stringify(review({ uid }));
    const t0 = Date.now();
    const req = request({ host: '127.0.0.1', port, servername: 'localhost', path, method: 'POST', ca: ca.cert, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, ms: Date.now() - t0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end(body);
  });
  const spin = post('/spin', 'spinner');
  // Ordinary reviews sent while the spinner holds one worker, for longer than the deadline.
  const ordinary: Array<ReturnType<typeof post>> = [];
  for (let i = 0; i < 40; i++) {
    ordinary.push(post('/allow', `ok-${i}`));
    await new Promise((r) => setTimeout(r, 20));
  }
  const [s, ...rest] = await Promise.all([spin, ...ordinary]);
  assert.equal(s!.status, 200);
  assert.equal(s!.body.response.uid, 'spinner');
  assert.equal(s!.body.response.allowed, false);
  assert.equal(s!.body.response.status?.code, 500);
  assert.match(s!.body.response.status?.message ?? '', /not answered within its deadline of 500 ms \(ADMISSION_DEADLINE_MS\)/);
  assert.ok(s!.ms >= 500, `the spinner was answered after its deadline (${s!.ms} ms)`);
  for (const r of rest) {
    assert.equal(r.status, 200);
    assert.equal(r.body.response.allowed, true, JSON.stringify(r.body));
    assert.ok(r.ms < 400, `an ordinary review waited ${r.ms} ms behind the spinner`);
  }
  const stats = p.stats();
  assert.equal(stats.deadlineExceeded, 1);
  assert.equal(stats.restarts, 1);
  await p.ready();
  assert.equal(p.stats().ready, 3, 'the spinner\'s worker was replaced (2 workers and the spare)');
});

test('requests queued behind a spinning worker go to its replacement, not failed', { timeout: 120_000 }, async () => {
  const p = pool({ size: 1, deadlineMs: 300 });
  await p.ready();
  const spin = p.run('admit', '/spin', bytesOf('/spin'));
  const queued = [1, 2, 3].map(() => p.run('admit', '/allow', bytesOf('/allow')));
  assert.equal(p.stats().queued, 3);
  const s = await spin;
  assert.equal(s.outcome.kind, 'deadline');
  assert.deepEqual(s.outcome.kind === 'deadline' && s.outcome.envelope, { kind: 'admit', apiVersion: 'admission.k8s.io/v1', uid: 'uid/spin' }, 'main heard the envelope before the handler ran');
  for (const q of await Promise.all(queued)) assert.equal(responseOf(q).allowed, true);
  assert.equal(p.stats().restarts, 1);
});

test('one source never holds more than `size` workers: another source\'s review runs on the spare at once', { timeout: 120_000 }, async () => {
  const p = pool({ size: 2, deadlineMs: 1_500 });
  await p.ready();
  const spinners = [1, 2, 3, 4].map(() => p.run('admit', '/spin', bytesOf('/spin'), '10.0.0.66'));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(p.stats().busy, 2, 'the spinning source holds size (2) workers, not the spare');
  const t0 = Date.now();
  const ok = await p.run('admit', '/allow', bytesOf('/allow'), '10.0.0.1');
  assert.equal(responseOf(ok).allowed, true);
  assert.ok(Date.now() - t0 < 1_000, `the other source waited ${Date.now() - t0} ms`);
  // Round-robin: a second source's queued review goes before the spinning source's queued ones.
  for (const s of await Promise.all(spinners)) assert.equal(s.outcome.kind, 'deadline');
});

test('while two sources are active each holds at most its share of the workers: two reviews of the second run at once', { timeout: 120_000 }, async () => {
  const p = pool({ size: 2, deadlineMs: 1_500 });
  await p.ready();
  // The second source has been seen: from now on the first may hold one worker of two, not both.
  assert.equal(responseOf(await p.run('admit', '/allow', bytesOf('/allow'), '10.0.0.1')).allowed, true);
  const spinners = [1, 2, 3].map(() => p.run('admit', '/spin', bytesOf('/spin'), '10.0.0.66'));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(p.stats().busy, 1, 'the spinning source holds its share (1 of 2) while another source is active');
  const t0 = Date.now();
  const both = await Promise.all([1, 2].map(() => p.run('admit', '/allow', bytesOf('/allow'), '10.0.0.1')));
  for (const a of both) assert.equal(responseOf(a).allowed, true);
  assert.ok(Date.now() - t0 < 1_000, `the other source's two reviews waited ${Date.now() - t0} ms`);
  for (const s of await Promise.all(spinners)) assert.equal(s.outcome.kind, 'deadline');
});

test('bodies go to the worker transferred, not copied; the reply comes back in a buffer of its own', { timeout: 120_000 }, async () => {
  const p = pool();
  await p.ready();
  const bytes = own(JSON.stringify(review({ uid: 'moved' })));
  const length = bytes.byteLength;
  const answer = p.run('admit', '/allow', bytes);
  // Dispatched at once to an idle worker: the ArrayBuffer is detached on this side.
  assert.equal(bytes.buffer.byteLength, 0, 'the body\'s ArrayBuffer was transferred');
  assert.ok(length > 0);
  const a = await answer;
  assert.equal(responseOf(a).uid, 'moved');
  const body = (a as Answer).body;
  assert.equal(body.buffer.byteLength, body.byteLength, 'the reply owns its ArrayBuffer (transferred from the worker)');
});

test('snapshots: a new worker starts with the current caches, and changes reach every worker', { timeout: 120_000 }, async () => {
  let current: SnapshotParts = { ...EMPTY, sidecarSets: [{ metadata: { name: 'first' } } as never], namespaces: [['team-a', { env: 'prod' }]] };
  const p = pool({ snapshot: () => current });
  await p.ready();
  const look = async () => JSON.parse(responseOf(await p.run('admit', '/snapshot', bytesOf('/snapshot'))).status!.message!);
  assert.deepEqual(await look(), { sidecarSets: ['first'], nsLabels: { env: 'prod' }, whitelist: null });
  current = { ...current, sidecarSets: [{ metadata: { name: 'second' } } as never], configMaps: [{ metadata: { name: 'kruise-configuration' }, data: { SidecarSet_PatchPodMetadata_WhiteList: '{"rules":[]}' } }] };
  p.pushSnapshot({ sidecarSets: current.sidecarSets, configMaps: current.configMaps });
  // Both workers, whichever answers.
  for (let i = 0; i < 4; i++) assert.deepEqual(await look(), { sidecarSets: ['second'], nsLabels: { env: 'prod' }, whitelist: '{"rules":[]}' });
  // A replacement worker (after a deadline) starts from the snapshot as it is now.
  assert.equal((await p.run('admit', '/spin', bytesOf('/spin'))).outcome.kind, 'deadline');
  await p.ready();
  for (let i = 0; i < 4; i++) assert.deepEqual((await look()).sidecarSets, ['second']);
});

test('RPCs: a handler\'s fetchPod is answered by main; an unanswered call times out in the worker; the clock stops meanwhile', { timeout: 120_000 }, async () => {
  const hang = new Promise<never>(() => {});
  const rpc: RpcHost = {
    fetchPod: (async (ns: string, name: string) => (name === 'hang' ? hang : { metadata: { namespace: ns, name }, spec: { nodeName: 'node-1' } })) as never,
  };
  // The deadline is shorter than the RPC timeout: time spent waiting on main does not count against it.
  const p = pool({ rpc, deadlineMs: 200, rpcTimeoutMs: 600 });
  await p.ready();
  const ok = responseOf(await p.run('admit', '/fetch-pod', bytesOf('/fetch-pod', { namespace: 'ns1', name: 'web-0' })));
  assert.equal(ok.status?.message, 'pod web-0 on node-1');
  const t0 = Date.now();
  const late = responseOf(await p.run('admit', '/fetch-pod', bytesOf('/fetch-pod', { namespace: 'ns1', name: 'hang' })));
  assert.equal(late.status?.code, 500);
  assert.match(late.status?.message ?? '', /fetchPod: no answer from the webhook's main thread within 600 ms/);
  assert.ok(Date.now() - t0 >= 600);
  assert.equal(p.stats().deadlineExceeded, 0);
  // With the snapshot synced, the sync wait needs no RPC (main offers none here).
  const synced = responseOf(await p.run('admit', '/synced', bytesOf('/synced')));
  assert.equal(synced.allowed, true);
});

test('a worker terminated while main still runs its RPC leaves nothing pending on main', { timeout: 120_000 }, async () => {
  let finish!: (v: unknown) => void;
  let calls = 0;
  const rpc: RpcHost = { fetchPod: (() => { calls++; return new Promise((r) => (finish = r)); }) as never };
  const p = pool({ rpc, deadlineMs: 150, rpcTimeoutMs: 150 });
  await p.ready();
  const a = await p.run('admit', '/rpc-then-spin', bytesOf('/rpc-then-spin'));
  assert.equal(a.outcome.kind, 'deadline');
  assert.equal(calls, 1);
  assert.equal(p.stats().pendingRpcs, 0, 'the dead worker\'s call is forgotten');
  // The call completes afterwards: nothing is sent to the dead worker and the pool carries on.
  finish({ metadata: { name: 'slow' } });
  await new Promise((r) => setTimeout(r, 20));
  await p.ready();
  assert.equal(responseOf(await p.run('admit', '/allow', bytesOf('/allow'))).allowed, true);
  assert.equal(p.stats().pendingRpcs, 0);
});

test('a sync wait is an RPC to main while the snapshot says the SidecarSets have not listed', { timeout: 120_000 }, async () => {
  let waited = 0;
  const p = pool({ snapshot: () => ({ ...EMPTY, sidecarSetsSynced: false }), rpc: { sidecarSetsSynced: (async (ms: number) => { waited = ms; }) as never } });
  await p.ready();
  assert.equal(responseOf(await p.run('admit', '/synced', bytesOf('/synced'))).allowed, true);
  assert.equal(waited, 1_000);
});

test('a worker past its heap cap dies alone: its request is answered as failed, the worker replaced, the next review served', { timeout: 120_000 }, async () => {
  // Enough heap to start a worker through tsx, far too little for the hog.
  const p = pool({ heapMb: 64, deadlineMs: 20_000 });
  await p.ready();
  const a = await p.run('admit', '/hog', bytesOf('/hog'));
  assert.equal(a.outcome.kind, 'crashed');
  assert.match(a.outcome.kind === 'crashed' ? a.outcome.message : '', /the admission worker exited/);
  assert.equal(responseOf(await p.run('admit', '/allow', bytesOf('/allow'))).allowed, true);
  await p.ready();
  assert.ok(p.stats().restarts >= 1);
});

test('a source whose request ran past its deadline never takes the last idle worker, even while its victims restart', { timeout: 120_000 }, async () => {
  const p = pool({ size: 2, deadlineMs: 300, respawnDelayMs: 50 });
  await p.ready();
  assert.equal((await p.run('admit', '/spin', bytesOf('/spin'), '10.0.0.66')).outcome.kind, 'deadline');
  await p.ready();
  // Three workers idle: the penalized source may take two of them, never the third.
  const spinners = [1, 2, 3].map(() => p.run('admit', '/spin', bytesOf('/spin'), '10.0.0.66'));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(p.stats().busy, 2);
  assert.equal(p.stats().queued, 1);
  const t0 = Date.now();
  assert.equal(responseOf(await p.run('admit', '/allow', bytesOf('/allow'), '10.0.0.1')).allowed, true);
  assert.ok(Date.now() - t0 < 300, 'the other source was answered before any deadline');
  for (const s of await Promise.all(spinners)) assert.equal(s.outcome.kind, 'deadline');
});
