import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { register as globalRegistry, Registry } from 'prom-client';
import { FakeClock, flush, sleep } from '../clock.js';
import { ExponentialFailureRateLimiter } from './backoff.js';
import { WorkQueue } from './queue.js';
import { runReconciler } from './runner.js';
import { TerminalError, type ReconcileFn, type Result } from './types.js';

/** A logger whose JSON lines are collected in `lines`. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(JSON.parse(String(chunk))); cb(); } });
  return { log: pino({ level: 'debug' }, stream), lines };
}

/** Runs `reconcile` on a fake clock, enqueues `keys`, advances `advanceMs`, then stops and returns what happened. */
async function run(reconcile: ReconcileFn, opts: { keys: string[]; advanceMs: number; workers?: number }) {
  const clock = new FakeClock();
  const queue = new WorkQueue({ clock, rateLimiter: new ExponentialFailureRateLimiter(5, 1_000_000) });
  const registry = new Registry();
  const { log, lines } = capturingLogger();
  const ac = new AbortController();
  let id = 0;
  const done = runReconciler({
    name: 'test', reconcile, queue, workers: opts.workers ?? 1, log, metrics: registry, signal: ac.signal, clock,
    newId: () => `r${++id}`,
  });
  for (const k of opts.keys) queue.add(k);
  await clock.advance(opts.advanceMs);
  ac.abort();
  await done;
  return { queue, registry, lines };
}

/** A reconciler that plays back `outcomes` (a Result to return or an Error to throw), then succeeds. */
function scripted(outcomes: (Result | Error)[]) {
  const calls: string[] = [];
  const fn: ReconcileFn = async (key) => {
    calls.push(key);
    const o = outcomes[calls.length - 1] ?? {};
    if (o instanceof Error) throw o;
    return o;
  };
  return { fn, calls };
}

describe('runReconciler', () => {
  const cases: { name: string; outcomes: (Result | Error)[]; advanceMs: number; wantCalls: number; wantResults: Record<string, number> }[] = [
    { name: 'a successful reconcile runs once and is forgotten', outcomes: [{}], advanceMs: 10_000, wantCalls: 1, wantResults: { success: 1 } },
    {
      name: 'errors are retried with exponential backoff until a success',
      outcomes: [new Error('a'), new Error('b'), new Error('c'), {}],
      advanceMs: 10_000, wantCalls: 4, wantResults: { error: 3, success: 1 },
    },
    {
      name: 'a TerminalError is not retried',
      outcomes: [new TerminalError('bad spec')], advanceMs: 10_000, wantCalls: 1, wantResults: { error: 1 },
    },
    {
      name: 'an error wrapping a TerminalError is not retried either',
      outcomes: [new Error('sync', { cause: new TerminalError('bad spec') })], advanceMs: 10_000, wantCalls: 1, wantResults: { error: 1 },
    },
    {
      name: 'requeueAfterMs brings the key back after that long',
      outcomes: [{ requeueAfterMs: 3000 }, { requeueAfterMs: 3000 }, {}], advanceMs: 10_000, wantCalls: 3,
      wantResults: { requeue_after: 2, success: 1 },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const s = scripted(tc.outcomes);
      const { registry } = await run(s.fn, { keys: ['ns/a'], advanceMs: tc.advanceMs });
      assert.equal(s.calls.length, tc.wantCalls);
      const total = await registry.getSingleMetric('controller_runtime_reconcile_total')!.get();
      const byResult = Object.fromEntries(total.values.filter((v) => v.value > 0).map((v) => [v.labels.result, v.value]));
      assert.deepEqual(byResult, tc.wantResults);
    });
  }

  it('retry delays follow the backoff (5, 10, 20 ms) and reset after success', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue({ clock, rateLimiter: new ExponentialFailureRateLimiter(5, 1_000_000) });
    const ac = new AbortController();
    const times: number[] = [];
    const outcomes = [new Error('1'), new Error('2'), new Error('3'), {}];
    const done = runReconciler({
      name: 't', queue, workers: 1, log: pino({ level: 'silent' }), signal: ac.signal, clock,
      reconcile: async () => { times.push(clock.now()); const o = outcomes.shift() ?? {}; if (o instanceof Error) throw o; return o; },
    });
    const t0 = clock.now();
    queue.add('k');
    await clock.advance(1000);
    assert.deepEqual(times.map((t) => t - t0), [0, 5, 15, 35]);
    assert.equal(queue.numRequeues('k'), 0);
    ac.abort();
    await done;
  });

  it('never reconciles one key on two workers at once, and does not lose the update made meanwhile', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue({ clock });
    const ac = new AbortController();
    let active = 0;
    let maxActive = 0;
    let calls = 0;
    const release: (() => void)[] = [];
    const done = runReconciler({
      name: 't', queue, workers: 4, log: pino({ level: 'silent' }), signal: ac.signal, clock,
      reconcile: async () => {
        calls++; active++; maxActive = Math.max(maxActive, active);
        await new Promise<void>((r) => release.push(r));
        active--;
        return {};
      },
    });
    queue.add('k');
    await flush();
    queue.add('k');
    queue.add('k');
    await flush();
    assert.equal(calls, 1);
    release.shift()!();
    await flush();
    assert.equal(calls, 2, 'the re-added key runs again once the first reconcile is done');
    release.shift()!();
    await flush();
    assert.equal(maxActive, 1);
    ac.abort();
    await done;
  });

  it('on stop, an in-flight reconcile sees the abort and the runner waits for it before resolving', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue({ clock });
    const ac = new AbortController();
    let sawAbort = false;
    let finished = false;
    const done = runReconciler({
      name: 't', queue, workers: 2, log: pino({ level: 'silent' }), signal: ac.signal, clock,
      reconcile: async (_key, ctx) => {
        await new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r()));
        sawAbort = ctx.signal.aborted;
        await flush();
        finished = true;
        return {};
      },
    });
    queue.add('k');
    queue.addAfter('later', 1000);
    await flush();
    ac.abort();
    await done;
    assert.deepEqual([sawAbort, finished, queue.isShuttingDown(), clock.pending()], [true, true, true, 0]);
  });

  it('logs each reconcile with controller, key and reconcileId', async () => {
    const { lines } = await run(async () => { throw new TerminalError('nope'); }, { keys: ['ns/a'], advanceMs: 0 });
    const err = lines.find((l) => l.msg === 'reconciler error (terminal, not requeued)');
    assert.ok(err);
    assert.deepEqual([err.controller, err.key, err.reconcileId], ['test', 'ns/a', 'r1']);
  });

  it('two controllers share one registry without duplicate-metric errors, and depth is exported', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    const ac = new AbortController();
    const qa = new WorkQueue({ clock });
    const qb = new WorkQueue({ clock });
    const common = { workers: 1, log: pino({ level: 'silent' }), metrics: registry, signal: ac.signal, clock };
    const a = runReconciler({ ...common, name: 'a', queue: qa, reconcile: async () => ({}) });
    const b = runReconciler({ ...common, name: 'b', queue: qb, reconcile: async () => ({}) });
    qa.add('x');
    await clock.advance(0);
    const text = await registry.metrics();
    assert.match(text, /controller_runtime_reconcile_total\{controller="a",result="success"\} 1/);
    assert.match(text, /controller_runtime_reconcile_total\{controller="b",result="success"\} 0/);
    assert.match(text, /workqueue_depth\{name="a",controller="a"\} 0/);
    assert.equal(globalRegistry.getSingleMetric('controller_runtime_reconcile_total'), undefined, 'nothing leaks into the global registry');
    ac.abort();
    await Promise.all([a, b]);
  });

  it('exports controller-runtime worker gauges and the client-go workqueue family, timed on the injected clock', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    const ac = new AbortController();
    const queue = new WorkQueue({ clock });
    let calls = 0;
    // Each reconcile takes 2 s of fake time; the first one asks to be requeued (a retry, as client-go's AddAfter).
    const reconcile: ReconcileFn = async () => { await sleep(clock, 2000); return ++calls === 1 ? { requeueAfterMs: 60_000 } : {}; };
    const done = runReconciler({ name: 'c', reconcile, queue, workers: 1, log: pino({ level: 'silent' }), metrics: registry, signal: ac.signal, clock });
    const value = async (metric: string) => {
      const m = (await registry.getSingleMetric(metric)!.get()).values.find((v) => v.labels.controller === 'c' && !('le' in v.labels)
        && (!('metricName' in v) || v.metricName === metric));
      return m?.value;
    };
    const sum = async (metric: string) => (await registry.getSingleMetric(metric)!.get()).values
      .find((v) => (v as { metricName?: string }).metricName === `${metric}_sum` && v.labels.name === 'c')?.value;
    queue.add('b'); // handed to the waiting worker at once
    queue.add('a');
    queue.add('a'); // duplicate of a queued key: not an add
    await clock.advance(1000);
    assert.deepEqual(
      [await value('controller_runtime_max_concurrent_reconciles'), await value('controller_runtime_active_workers'), await value('workqueue_depth'),
        await value('workqueue_unfinished_work_seconds'), await value('workqueue_longest_running_processor_seconds')],
      [1, 1, 1, 1, 1]);
    await clock.advance(3000); // b done at 2 s, a taken at 2 s (waited 2 s) and done at 4 s
    assert.deepEqual(
      [await value('workqueue_adds_total'), await value('workqueue_retries_total'), await value('controller_runtime_active_workers'),
        await value('workqueue_unfinished_work_seconds'), await sum('workqueue_queue_duration_seconds'), await sum('workqueue_work_duration_seconds')],
      [2, 1, 0, 0, 2, 4]);
    assert.match(await registry.metrics(), /# HELP workqueue_retries_total Total number of retries handled by workqueue\n/);
    ac.abort();
    await done;
  });
});
