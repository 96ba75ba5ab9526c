import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, sleep } from './clock.js';

describe('FakeClock', () => {
  it('fires due timers in order and leaves later ones pending', async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b@20'), 20);
    clock.setTimeout(() => fired.push('a@10'), 10);
    clock.setTimeout(() => fired.push('c@30'), 30);
    await clock.advance(25);
    assert.deepEqual(fired, ['a@10', 'b@20']);
    assert.equal(clock.now(), 25);
    assert.equal(clock.pending(), 1);
  });

  it('fires timers scheduled by async code during the same advance', async () => {
    const clock = new FakeClock(0);
    const at: number[] = [];
    const loop = async () => { for (let i = 0; i < 3; i++) { await sleep(clock, 10); at.push(clock.now()); } };
    const done = loop();
    await clock.advance(100);
    await done;
    assert.deepEqual(at, [10, 20, 30]);
  });

  it('clearTimeout cancels a timer', async () => {
    const clock = new FakeClock(0);
    let fired = false;
    clock.clearTimeout(clock.setTimeout(() => { fired = true; }, 5));
    await clock.advance(10);
    assert.equal(fired, false);
  });

  it('sleep resolves early when its signal aborts and cancels its timer', async () => {
    const clock = new FakeClock(0);
    const ac = new AbortController();
    const p = sleep(clock, 1000, ac.signal);
    ac.abort();
    await p;
    assert.equal(clock.pending(), 0);
  });
});
