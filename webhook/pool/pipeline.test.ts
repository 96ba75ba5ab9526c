// The pool's pipelining (pool.ts, claims.ts) with real worker threads (test-worker.ts through tsx): jobs sent to a busy
// worker are taken back, bytes intact, when the job before them spins, waits on an RPC or passes its deadline, and are
// answered by another worker; nothing is pipelined while two sources are active.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { silentLogger } from '../../shared/log.js';
import { GATE_DEFAULTS } from '../../shared/feature-gates.js';
import { review } from '../test-helpers.js';
import type { Answer } from '../admission/answer.js';
import { createPool, type PoolOptions } from './pool.js';
import type { SnapshotParts } from './snapshot.js';

const ENTRY = new URL('./test-worker.ts', import.meta.url);
const EMPTY: SnapshotParts = { sidecarSets: [], sidecarSetsSynced: true, namespaces: [], revisions: [], configMaps: [], workloadSpreads: [] };

function pool(o: Partial<PoolOptions> = {}) {
  const p = createPool({ size: 2, entry: ENTRY, deadlineMs: 1_500, rpcTimeoutMs: 2_000, workerData: { gates: GATE_DEFAULTS }, rpc: {}, snapshot: () => EMPTY, log: silentLogger(), respawnDelayMs: 50, ...o });
  after(() => p.close());
  return p;
}

/** A review's bytes as body.ts reads them: in a SharedArrayBuffer of their own. */
const shared = (path: string, uid: string) => {
  const b = Buffer.from(JSON.stringify(review({ uid: `${uid}${path}` })));
  const u = new Uint8Array(new SharedArrayBuffer(b.length));
  u.set(b);
  return u;
};
const allowedUid = (a: Awaited<ReturnType<ReturnType<typeof pool>['run']>>) => {
  assert.ok('body' in a, `answered: ${JSON.stringify(a.outcome)}`);
  const r = JSON.parse(Buffer.from((a as Answer).body).toString()).response as { uid: string; allowed: boolean };
  assert.equal(r.allowed, true);
  return r.uid;
};

/** A spinning review, then `n` ordinary ones from the same source: the spinner's worker gets some of them pipelined. */
async function behindSpinner(p: ReturnType<typeof pool>, n: number) {
  const spin = p.run('admit', '/spin', shared('/spin', 'spinner'), '10.0.0.1');
  const t0 = Date.now();
  const ordinary = Array.from({ length: n }, (_, i) => p.run('admit', '/allow', shared('/allow', `ok-${i}`), '10.0.0.1').then((a) => ({ a, ms: Date.now() - t0 })));
  assert.ok(p.stats().pipelined >= 3, `jobs were pipelined (${p.stats().pipelined})`);
  return { spin, ordinary: await Promise.all(ordinary) };
}

test('jobs pipelined behind a spinning review are taken back after stallMs and answered by another worker', { timeout: 120_000 }, async () => {
  const p = pool({ stallMs: 20 });
  await p.ready();
  const { spin, ordinary } = await behindSpinner(p, 8);
  ordinary.forEach(({ a }, i) => assert.equal(allowedUid(a), `ok-${i}/allow`));
  for (const { ms } of ordinary) assert.ok(ms < 1_000, `an ordinary review waited ${ms} ms behind the spinner (deadline 1500 ms)`);
  assert.ok(p.stats().takenBack >= 3, `taken back: ${p.stats().takenBack}`);
  assert.equal((await spin).outcome.kind, 'deadline');
});

test('jobs pipelined behind a review that passes its deadline are queued again, not lost with its worker', { timeout: 120_000 }, async () => {
  const p = pool({ stallMs: 60_000, deadlineMs: 400 });
  await p.ready();
  const { spin, ordinary } = await behindSpinner(p, 8);
  ordinary.forEach(({ a }, i) => assert.equal(allowedUid(a), `ok-${i}/allow`));
  assert.ok(p.stats().takenBack >= 3, `taken back: ${p.stats().takenBack}`);
  assert.equal((await spin).outcome.kind, 'deadline');
  assert.equal(p.stats().restarts, 1);
});

test('jobs pipelined behind a review that waits on an RPC to main go to another worker at once', { timeout: 120_000 }, async () => {
  const p = pool({ stallMs: 60_000, rpc: { fetchPod: () => new Promise((r) => setTimeout(() => r(undefined), 800)) } });
  await p.ready();
  const slow = p.run('admit', '/fetch-pod', shared('/fetch-pod', 'slow'), '10.0.0.1');
  const t0 = Date.now();
  const ordinary = await Promise.all(Array.from({ length: 8 }, (_, i) => p.run('admit', '/allow', shared('/allow', `ok-${i}`), '10.0.0.1')));
  assert.ok(Date.now() - t0 < 600, `the ordinary reviews took ${Date.now() - t0} ms; the RPC takes 800`);
  ordinary.forEach((a, i) => assert.equal(allowedUid(a), `ok-${i}/allow`));
  assert.ok(p.stats().takenBack >= 1, `taken back: ${p.stats().takenBack}`);
  assert.equal((await slow).outcome.kind, 'admitted');
});

test('nothing is pipelined while two sources are active, nor a body that is not shared', { timeout: 120_000 }, async () => {
  const p = pool();
  await p.ready();
  const own = (uid: string) => { const b = Buffer.from(JSON.stringify(review({ uid }))); const u = new Uint8Array(new ArrayBuffer(b.length)); u.set(b); return u; };
  for (const a of await Promise.all(Array.from({ length: 8 }, (_, i) => p.run('admit', '/allow', own(`own-${i}`), '10.0.0.1')))) allowedUid(a);
  assert.equal(p.stats().pipelined, 0, 'ArrayBuffer bodies are transferred to idle workers only');
  allowedUid(await p.run('admit', '/allow', shared('/allow', 'other'), '10.0.0.2'));
  for (const a of await Promise.all(Array.from({ length: 8 }, (_, i) => p.run('admit', '/allow', shared('/allow', `two-${i}`), '10.0.0.1')))) allowedUid(a);
  assert.equal(p.stats().pipelined, 0, 'another source was active');
});
