// The byte budget's shares, without sockets: per source, per group, and the reserve only small requests may use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byteBudget } from './byte-budget.js';

const shares = { perSource: 40, smallRequest: 10, smallReserve: 20 };

test('a source holds at most its share; another source is not affected', () => {
  const b = byteBudget(100, shares);
  const a1 = b.charge('a');
  const a2 = b.charge('a');
  assert.equal(a1.tryAdd(30), true);
  assert.equal(a2.tryAdd(11), false, 'a would hold 41 of its 40');
  assert.equal(a2.tryAdd(10), true);
  assert.equal(b.charge('b').tryAdd(30), true);
  assert.deepEqual([b.usedBy('a'), b.usedBy('b'), b.used], [40, 30, 70]);
});

test('big requests stop at cap - reserve; small ones (body and reply within smallRequest) may use the reserve', () => {
  const b = byteBudget(100, shares);
  for (const s of ['a', 'b']) assert.equal(b.charge(s).tryAdd(40), true);
  assert.equal(b.charge('c').tryAdd(11), false, 'a big request would take the reserve');
  const small = b.charge('c');
  assert.equal(small.tryAdd(10), true, 'a small one may');
  assert.equal(small.tryAdd(1), false, 'and stops being small past 10 bytes');
  for (const s of ['d', 'e']) assert.equal(b.charge(s).tryAdd(5), true);
  assert.equal(b.charge('f').tryAdd(1), false, 'the cap holds for small requests too');
  assert.ok(b.peak <= 100);
});

test('a group holds at most its cap over all its requests and sources', () => {
  const b = byteBudget(100, shares);
  const g = { name: 'convert', cap: 30 };
  assert.equal(b.charge('a', g).tryAdd(25), true);
  assert.equal(b.charge('b', g).tryAdd(6), false);
  assert.equal(b.charge('b').tryAdd(30), true, 'outside the group the budget is free');
  assert.equal(b.usedIn(g), 25);
});

test('release gives back everything once; a released charge takes nothing more; empty entries are dropped', () => {
  const b = byteBudget(100, shares);
  const c = b.charge('a', { name: 'g', cap: 50 });
  assert.equal(c.tryAdd(8), true);
  assert.equal(c.tryAdd(30), true);
  c.release();
  c.release();
  assert.deepEqual([b.used, b.usedBy('a'), b.usedIn({ name: 'g', cap: 50 }), c.bytes], [0, 0, 0, 0]);
  assert.equal(c.tryAdd(1), false);
  assert.equal(b.peak, 38);
});

test('without shares the budget is one plain semaphore', () => {
  const b = byteBudget(10);
  assert.equal(b.charge('a').tryAdd(10), true);
  assert.equal(b.charge('b').tryAdd(1), false);
});
