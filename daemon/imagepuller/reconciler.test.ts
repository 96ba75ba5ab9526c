import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NodeImage } from '../../shared/api/node-image.js';
import { silentLogger } from '../../shared/log.js';
import type { SyncResult } from './puller.js';
import { nodeImageReconciler } from './reconciler.js';

const ni: NodeImage = { metadata: { name: 'node-a', resourceVersion: '3' }, spec: { images: {} } };
const ctx = { log: silentLogger(), signal: new AbortController().signal };
const result: SyncResult = { status: { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0 }, written: false, requeueAfterMs: 4_000 };

function fakePuller(sync: (n: NodeImage) => Promise<SyncResult>) {
  const calls = { synced: [] as NodeImage[], stopped: 0 };
  return { calls, puller: { sync: async (n: NodeImage) => { calls.synced.push(n); return sync(n); }, stop: () => { calls.stopped++; } } };
}

test('the cached NodeImage is synced and its requeue interval returned', async () => {
  const { calls, puller } = fakePuller(async () => result);
  const r = await nodeImageReconciler({ get: (k) => (k === 'node-a' ? ni : undefined), puller })('node-a', ctx);
  assert.deepEqual(r, { requeueAfterMs: 4_000 });
  assert.deepEqual(calls.synced, [ni]);
});

test('a NodeImage that is gone stops every pull and is not requeued', async () => {
  const { calls, puller } = fakePuller(async () => result);
  assert.equal(await nodeImageReconciler({ get: () => undefined, puller })('node-a', ctx), undefined);
  assert.deepEqual([calls.synced.length, calls.stopped], [0, 1]);
});

test('a status conflict is requeued shortly instead of failing; any other error is thrown for backoff', async () => {
  const conflict = new Error('write status', { cause: Object.assign(new Error('Conflict'), { code: 409 }) });
  const c = fakePuller(async () => { throw conflict; });
  assert.deepEqual(await nodeImageReconciler({ get: () => ni, puller: c.puller, random: () => 0 })('node-a', ctx), { requeueAfterMs: 500 });
  const other = fakePuller(async () => { throw new Error('boom'); });
  await assert.rejects(nodeImageReconciler({ get: () => ni, puller: other.puller })('node-a', ctx), /boom/);
});
