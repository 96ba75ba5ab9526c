import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { realClock } from '../clock.js';
import { WorkQueue } from './queue.js';
import { runReconciler } from './runner.js';
import { filterSliced, mapSliced, timeSlicer } from './yield.js';

describe('no backlog or loop holds the event loop (issue 23)', () => {
  it('the runner lets a timer run between reconciles that need no I/O', async () => {
    const queue = new WorkQueue({ clock: realClock });
    const ac = new AbortController();
    let reconciled = 0;
    for (let i = 0; i < 2000; i++) queue.add(`k${i}`);
    const done = runReconciler({ name: 'fast', reconcile: async () => { reconciled++; }, queue, workers: 3, log: pino({ level: 'silent' }), signal: ac.signal, clock: realClock });
    const atTimer = await new Promise<number>((resolve) => setTimeout(() => resolve(reconciled), 0));
    assert.ok(atTimer < 2000, `a 0 ms timer waited for ${atTimer} reconciles`);
    while (reconciled < 2000) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    await done;
  });

  it('filterSliced and mapSliced give Array.filter/map results and let a timer in during a long loop', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => i);
    const spin = (ms: number) => { const until = performance.now() + ms; while (performance.now() < until) { /* work */ } };
    let timerAt = -1;
    let seen = 0;
    setTimeout(() => { timerAt = seen; }, 0);
    const even = await filterSliced(items, (i) => { seen++; if (i % 1000 === 0) spin(5); return i % 2 === 0; }, 10);
    assert.deepEqual(even, items.filter((i) => i % 2 === 0));
    assert.ok(timerAt > 0 && timerAt < items.length, `the timer ran after ${timerAt} of ${items.length} items`);
    assert.deepEqual(await mapSliced([1, 2, 3], (x) => x * 2), [2, 4, 6]);
  });

  it('timeSlicer yields only once the budget is spent, and reads the clock every 64 ticks', () => {
    const slicer = timeSlicer(1_000_000);
    for (let i = 0; i < 1000; i++) assert.equal(slicer.tick(), undefined);
    const zero = timeSlicer(0);
    const ticks = Array.from({ length: 64 }, () => zero.tick());
    assert.equal(ticks.filter(Boolean).length, 1);
  });
});
