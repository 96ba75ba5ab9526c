// The shutdown sequence (review M5): with an injected delay (no sleeping) for the order of steps and the bounded
// grace, and once over a real socket with a short drain: requests made during the drain succeed, an in-flight one
// completes, and new connections are refused only after the drain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../shared/log.js';
import { allowed } from './admission/response.js';
import { buildApp } from './app.js';
import { drainThenClose, type DrainDeps } from './drain.js';
import { createMetrics } from './metrics.js';
import { review } from './test-helpers.js';

/** A delay whose timers the test fires by hand, recording what was asked for. */
function manualDelay() {
  const pending: { ms: number; fire: () => void }[] = [];
  return {
    pending,
    delay: (ms: number) => new Promise<void>((resolve) => void pending.push({ ms, fire: resolve })),
  };
}

const tick = () => new Promise((r) => setImmediate(r));
const quietLog = { info: () => {}, warn: () => {} };

test('drain: readiness fails at once, close waits for the drain period, then the outcome is closed', async () => {
  const d = manualDelay();
  const state = { draining: false };
  const steps: string[] = [];
  const deps: DrainDeps = { state, drainMs: 5000, graceMs: 10_000, delay: d.delay, log: quietLog, close: async () => void steps.push('close') };
  const done = drainThenClose(deps);
  assert.equal(state.draining, true, 'not ready as soon as the sequence starts');
  await tick();
  assert.deepEqual(d.pending.map((p) => p.ms), [5000]);
  assert.deepEqual(steps, [], 'still serving during the drain');
  d.pending[0]!.fire();
  assert.equal(await done, 'closed');
  assert.deepEqual(steps, ['close']);
});

test('drain: a close that outlives the grace period is forced', async () => {
  const d = manualDelay();
  const done = drainThenClose({ state: { draining: false }, drainMs: 5000, graceMs: 10_000, delay: d.delay, log: quietLog, close: () => new Promise(() => {}) });
  await tick();
  d.pending[0]!.fire();
  await tick();
  assert.deepEqual(d.pending.map((p) => p.ms), [5000, 10_000]);
  d.pending[1]!.fire();
  assert.equal(await done, 'forced');
});

test('drain: a close that fails is forced too', async () => {
  const d = manualDelay();
  const done = drainThenClose({ state: { draining: false }, drainMs: 0, graceMs: 10_000, delay: d.delay, log: quietLog, close: async () => { throw new Error('boom'); } });
  await tick();
  d.pending[0]!.fire();
  assert.equal(await done, 'forced');
});

function post(port: number, path: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(review());
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('drain over a real socket: requests during the drain succeed, an in-flight one completes, then new connections are refused', async () => {
  let release!: () => void;
  let entered!: () => void;
  const slowEntered = new Promise<void>((r) => (entered = r));
  const gate = new Promise<void>((r) => (release = r));
  const state = { draining: false };
  const app = buildApp({
    log: silentLogger(),
    metrics: createMetrics(),
    drain: state,
    routes: [
      { path: '/allow', name: 'allow', handler: () => allowed() },
      { path: '/slow', name: 'slow', handler: async () => { entered(); await gate; return allowed(); } },
    ],
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;

  const d = manualDelay();
  const inFlight = post(port, '/slow');
  await slowEntered;
  const done = drainThenClose({ state, drainMs: 5000, graceMs: 10_000, delay: d.delay, log: quietLog, close: () => app.close() });
  // During the drain: still served, each answer asking for the connection to be closed.
  const during = await post(port, '/allow');
  assert.deepEqual(during, { status: 200, connection: 'close' });
  d.pending[0]!.fire();
  for (let i = 0; i < 100 && app.server.listening; i++) await tick();
  // Closing: the listener is gone, the in-flight review is still waited for.
  await assert.rejects(post(port, '/allow'), /ECONNREFUSED/);
  release();
  assert.equal((await inFlight).status, 200);
  assert.equal(await done, 'closed');
});
