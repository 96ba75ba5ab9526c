import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, flush } from '../clock.js';
import { ExponentialFailureRateLimiter } from './backoff.js';
import { WorkQueue, type GetResult } from './queue.js';

const newQueue = (clock = new FakeClock()) => new WorkQueue({ clock, rateLimiter: new ExponentialFailureRateLimiter(5, 1_000_000) });

/** Takes every key that is ready right now, without blocking. */
async function drain(q: WorkQueue): Promise<string[]> {
  const keys: string[] = [];
  while (q.len() > 0) {
    const r = await q.get();
    if (r.shutdown) break;
    keys.push(r.key);
  }
  return keys;
}

describe('WorkQueue', () => {
  const cases: { name: string; run: (q: WorkQueue, clock: FakeClock) => Promise<unknown>; want: unknown }[] = [
    {
      name: 'adding the same key twice while queued hands it out once',
      run: async (q) => { q.add('a'); q.add('b'); q.add('a'); return drain(q); },
      want: ['a', 'b'],
    },
    {
      name: 'a key re-added while processing is held back until done()',
      run: async (q) => {
        q.add('a');
        const first = await q.get();
        q.add('a');
        const whileProcessing = q.len();
        q.done(first.key!);
        return [whileProcessing, await drain(q)];
      },
      want: [0, ['a']],
    },
    {
      name: 'a key processed and not re-added does not come back after done()',
      run: async (q) => { q.add('a'); const r = await q.get(); q.done(r.key!); return q.len(); },
      want: 0,
    },
    {
      name: 'addAfter makes the key ready only once the delay has passed',
      run: async (q, clock) => {
        q.addAfter('a', 100);
        await clock.advance(99);
        const before = q.len();
        await clock.advance(1);
        return [before, q.len()];
      },
      want: [0, 1],
    },
    {
      name: 'a second addAfter with an earlier deadline wins, a later one is ignored',
      run: async (q, clock) => {
        q.addAfter('a', 1000);
        q.addAfter('a', 10);
        q.addAfter('a', 5000);
        await clock.advance(10);
        const at10 = await drain(q);
        await clock.advance(10_000);
        return [at10, q.len()];
      },
      want: [['a'], 0],
    },
    {
      name: 'addRateLimited backs off 5, 10, 20 ms per key and forget() resets it',
      run: async (q, clock) => {
        const delays: number[] = [];
        for (let i = 0; i < 4; i++) {
          if (i === 3) q.forget('a');
          const start = clock.now();
          q.addRateLimited('a');
          while (q.len() === 0) await clock.advance(1);
          delays.push(clock.now() - start);
          const r = await q.get();
          q.done(r.key!);
        }
        return delays;
      },
      want: [5, 10, 20, 5],
    },
    {
      name: 'a blocked get() is woken by add()',
      run: async (q) => { const p = q.get(); q.add('x'); return p; },
      want: { key: 'x', shutdown: false },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const clock = new FakeClock();
      assert.deepEqual(await tc.run(newQueue(clock), clock), tc.want);
    });
  }

  it('shutDown wakes blocked getters, drops delayed adds and waits for in-flight keys', async () => {
    const clock = new FakeClock();
    const q = newQueue(clock);
    q.add('busy');
    const busy = await q.get();
    const blocked = q.get();
    q.addAfter('later', 50);
    let drained = false;
    const shut = q.shutDown().then(() => { drained = true; });
    assert.deepEqual(await blocked, { key: undefined, shutdown: true } satisfies GetResult);
    await flush();
    assert.equal(drained, false, 'must wait for the in-flight key');
    q.done(busy.key!);
    await shut;
    assert.equal(drained, true);
    await clock.advance(100);
    assert.equal(q.len(), 0);
    assert.equal(clock.pending(), 0);
    q.add('after-shutdown');
    assert.equal(q.len(), 0);
  });

  it('reports depth changes to observers', async () => {
    const q = newQueue();
    const seen: number[] = [];
    q.observeDepth((d) => seen.push(d));
    q.add('a');
    q.add('b');
    await q.get();
    assert.deepEqual(seen, [0, 1, 2, 1]);
  });
});
