import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ImageTagStatus } from '../../shared/api/node-image.js';
import type { PullImageRequest } from '../cri/runtime.js';
import { goDuration } from './events.js';
import { taskFor } from './plan.js';
import { PullPool, realClock, runPull } from './pull-worker.js';
import { ScriptedRuntime, VirtualClock } from './testing.js';

describe('runPull', () => {
  test('stopping a running pull resolves undefined and publishes nothing after Pulling', async () => {
    const clock = new VirtualClock();
    const runtime = new ScriptedRuntime(clock);
    runtime.script = ['hang'];
    const published: ImageTagStatus[] = [];
    const stop = new AbortController();
    const done = runPull(taskFor('nginx', { tag: '1' }), { images: runtime, clock, auths: [], publish: (s) => published.push(s) }, stop.signal);
    await new Promise((r) => setImmediate(r));
    stop.abort();
    assert.equal(await done, undefined);
    assert.deepEqual(published.map((s) => s.phase), ['Pulling']);
  });

  test('the CRI deadline of an attempt trails the per-attempt timeout', async () => {
    const clock = new VirtualClock();
    const runtime = new ScriptedRuntime(clock);
    const seen: unknown[] = [];
    const images = Object.assign(Object.create(runtime) as ScriptedRuntime, {
      pullImage: (req: never, o: unknown) => { seen.push(o); return runtime.pullImage(req); },
    });
    await runPull(taskFor('nginx', { tag: '1', pullPolicy: { timeoutSeconds: 7 } }), { images, clock, auths: [], publish: () => undefined }, new AbortController().signal);
    assert.equal(seen.length, 1);
    assert.equal((seen[0] as { timeoutMs: number }).timeoutMs, 8_000);
  });

  test('stopping a running pull aborts the signal of the RPC in flight', async () => {
    // The real clock: a virtual one would jump to the 600 s attempt timeout as soon as the loop idles.
    const clock = realClock;
    const runtime = new ScriptedRuntime(new VirtualClock());
    runtime.script = ['hang'];
    let rpcSignal: AbortSignal | undefined;
    const images = Object.assign(Object.create(runtime) as ScriptedRuntime, {
      pullImage: (req: never, o: { signal?: AbortSignal }) => { rpcSignal = o.signal; return runtime.pullImage(req); },
    });
    const stop = new AbortController();
    const done = runPull(taskFor('nginx', { tag: '1' }), { images, clock, auths: [], publish: () => undefined }, stop.signal);
    await new Promise((r) => setImmediate(r));
    assert.equal(rpcSignal?.aborted, false);
    stop.abort();
    await done;
    assert.equal(rpcSignal?.aborted, true);
  });
});

describe('the PullImage request', () => {
  test('carries the NodeImage sandboxConfig plus the pulling-image-by annotation, which always wins', async () => {
    const clock = new VirtualClock();
    const runtime = new ScriptedRuntime(clock);
    const sandboxConfig = { labels: { team: 'a' }, annotations: { note: 'x', 'apps.kruise.io/pulling-image-by': 'someone' } };
    await runPull(taskFor('nginx', { tag: '1' }, [], sandboxConfig), { images: runtime, clock, auths: [], publish: () => undefined }, new AbortController().signal);
    const [[req]] = runtime.callsOf('pullImage') as [[PullImageRequest]];
    assert.deepEqual(req.sandboxConfig, { labels: { team: 'a' }, annotations: { note: 'x', 'apps.kruise.io/pulling-image-by': 'kruise-daemon' } });
    await runPull(taskFor('nginx', { tag: '2' }), { images: runtime, clock, auths: [], publish: () => undefined }, new AbortController().signal);
    const [, [plain]] = runtime.callsOf('pullImage') as [[PullImageRequest], [PullImageRequest]];
    assert.deepEqual(plain.sandboxConfig, { labels: {}, annotations: { 'apps.kruise.io/pulling-image-by': 'kruise-daemon' } });
  });
});

describe('PullPool', () => {
  test('runs jobs in FIFO order within the bound and skips jobs cancelled while queued', async () => {
    const pool = new PullPool(1);
    const order: string[] = [];
    const gates: Array<() => void> = [];
    const job = (name: string) => () => new Promise<void>((resolve) => { order.push(name); gates.push(resolve); });
    const cancelled = new AbortController();
    pool.submit(job('a'), new AbortController().signal);
    pool.submit(job('b'), cancelled.signal);
    pool.submit(job('c'), new AbortController().signal);
    cancelled.abort();
    assert.deepEqual([order, pool.active], [['a'], 1]);
    gates.shift()!();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ['a', 'c']);
    gates.shift()!();
    await new Promise((r) => setImmediate(r));
    assert.equal(pool.active, 0);
    assert.equal(pool.peak, 1);
  });
});

describe('goDuration', () => {
  const cases: Array<[number, string]> = [[0, '0s'], [150, '150ms'], [1.5, '1.5ms'], [1000, '1s'], [3512.34, '3.51234s'], [62_500, '1m2.5s'], [3_600_000, '1h0m0s']];
  for (const [ms, want] of cases) test(`${ms} ms prints as Go would: ${want}`, () => assert.equal(goDuration(ms), want));
});
