// The production worker (worker.ts: exactly makeRoutes' handlers) through the pool answers as the same handlers do
// in-thread: one decision path for the server, the in-thread executor and the CLI.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { silentLogger } from '../../shared/log.js';
import { benchCacheSet, BENCH_GATES, podReview, routeDeps } from '../../bench/admission/fixtures.js';
import type { Answer } from '../admission/answer.js';
import { makeRoutes } from '../handlers/index.js';
import { workerEntry } from './entry.js';
import { inThreadExecutor } from './in-thread.js';
import { createPool } from './pool.js';
import { snapshotSource } from './snapshot.js';

const own = (v: unknown) => { const b = Buffer.from(JSON.stringify(v)); const u = new Uint8Array(new ArrayBuffer(b.length)); u.set(b); return u; };
const json = (a: Awaited<ReturnType<ReturnType<typeof inThreadExecutor>['run']>>) => {
  assert.ok('body' in a, JSON.stringify(a.outcome));
  return JSON.parse(Buffer.from((a as Answer).body).toString());
};
const patchOps = (r: { response: { patch?: string } }) => JSON.parse(Buffer.from(r.response.patch ?? '', 'base64').toString()) as Array<{ op: string; path: string; value?: unknown }>;

test('the production worker answers /mutate-pod and /convert as makeRoutes does in-thread', { timeout: 120_000 }, async () => {
  const set = benchCacheSet();
  const source = snapshotSource(set, () => {});
  const pool = createPool({ size: 2, entry: workerEntry(), deadlineMs: 2_000, rpcTimeoutMs: 1_000, workerData: { gates: BENCH_GATES }, rpc: {}, snapshot: source.full, log: silentLogger() });
  after(() => { source.stop(); return pool.close(); });
  await pool.ready();
  const local = inThreadExecutor(makeRoutes(routeDeps(() => new Date())));

  const inWorker = json(await pool.run('admit', '/mutate-pod', own(podReview(3))));
  const inThread = json(await local.run('admit', '/mutate-pod', own(podReview(3))));
  assert.equal(inWorker.response.uid, 'bench-3');
  assert.equal(inWorker.response.allowed, true);
  // The hash annotations carry the time of the review; everything else is the same patch.
  const strip = (ops: ReturnType<typeof patchOps>) => ops.filter((o) => !o.path.startsWith('/metadata/annotations'));
  assert.ok(strip(patchOps(inWorker)).length > 0);
  assert.deepEqual(strip(patchOps(inWorker)), strip(patchOps(inThread)));

  const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'c1', desiredAPIVersion: 'apps.kruise.io/v1beta1',
    objects: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespace: 'ns1', containers: [{ name: 'c', image: 'i' }] } }] } };
  assert.deepEqual(json(await pool.run('convert', '/convert', own(review))), json(await local.run('convert', '/convert', own(review))));
  const bad = await pool.run('admit', '/mutate-pod', own({ kind: 'AdmissionReview' }));
  assert.equal(bad.outcome.kind, 'refuse');
});
