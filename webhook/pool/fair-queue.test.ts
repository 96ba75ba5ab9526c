import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FairQueue } from './fair-queue.js';

test('round-robin by source, arrival order within one, and sources the caller refuses skipped', () => {
  const q = new FairQueue<{ source: string; n: number }>();
  for (let n = 0; n < 4; n++) q.push({ source: 'flood', n });
  q.push({ source: 'apiserver', n: 10 });
  q.push({ source: 'apiserver', n: 11 });
  const all = () => true;
  assert.deepEqual([q.take(all), q.take(all), q.take(all), q.take(all)].map((j) => `${j!.source}:${j!.n}`), ['flood:0', 'apiserver:10', 'flood:1', 'apiserver:11']);
  assert.equal(q.size, 2);
  assert.equal(q.take((s) => s !== 'flood'), undefined);
  assert.deepEqual(q.drain().map((j) => j.n), [2, 3]);
  assert.equal(q.size, 0);
});

test('a job put back is served first of its source, its source first when it had none waiting; `fits` skips a source whose next job does not fit', () => {
  const q = new FairQueue<{ source: string; n: number }>();
  q.push({ source: 'a', n: 1 });
  q.push({ source: 'a', n: 2 });
  q.push({ source: 'b', n: 3 });
  const all = () => true;
  const first = q.take(all)!;
  q.unshift(first);
  assert.equal(q.size, 3);
  assert.equal(q.take(all, (j) => j.n !== 1)!.n, 3, 'a\'s next job does not fit: b\'s is taken');
  assert.equal(q.take(all)!.n, 1);
  q.unshift({ source: 'c', n: 9 });
  assert.equal(q.take(all)!.n, 9, 'a source with nothing waiting goes first');
  assert.equal(q.take(all)!.n, 2);
});
