import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forEachLimit, slowStart } from './concurrency.js';

test('slowStart runs batches of 1, 2, 4, …, each waiting for the last, and reports how many succeeded', async () => {
  // A batch is what starts before the calls in flight all finished.
  const rounds: number[][] = [];
  let inFlight = 0;
  let round = 0;
  const r = await slowStart([1, 2, 3, 4, 5, 6, 7, 8, 9], async (n) => {
    inFlight++;
    (rounds[round] ??= []).push(n);
    await new Promise((res) => setImmediate(res));
    if (--inFlight === 0) round++;
  });
  assert.deepEqual(rounds, [[1], [2, 3], [4, 5, 6, 7], [8, 9]]);
  assert.deepEqual(r, { done: 9 });
});

test('slowStart stops after the first batch with a failure: later items are never tried', async () => {
  const tried: number[] = [];
  const boom = new Error('quota');
  const r = await slowStart([1, 2, 3, 4, 5, 6, 7], async (n) => { tried.push(n); if (n === 2) throw boom; });
  assert.deepEqual(tried, [1, 2, 3]);
  assert.deepEqual(r, { done: 2, error: boom });
});

test('forEachLimit keeps at most `limit` in flight and rethrows the first error after all settled', async () => {
  let inFlight = 0;
  let most = 0;
  const seen: number[] = [];
  await assert.rejects(forEachLimit([1, 2, 3, 4, 5], 2, async (n) => {
    inFlight++; most = Math.max(most, inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight--; seen.push(n);
    if (n === 2) throw new Error('two');
  }), /two/);
  assert.equal(most, 2);
  assert.deepEqual(seen.sort(), [1, 2, 3, 4, 5]);
});
