import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INSTANCE_ID_SPACE, instanceIdSource, InstanceIdsExhaustedError, MAX_IDS_IN_USE, newInstanceIds } from './names.js';

/** A `taken` set of any size without holding millions of strings: it says no id is taken, only its size matters. */
const takenOfSize = (size: number) => ({ size, has: () => false }) as unknown as ReadonlySet<string>;

describe('newInstanceIds always terminates (N-H1)', () => {
  it('the space is 27^5', () => assert.equal(INSTANCE_ID_SPACE, 14_348_907));

  it('more ids than the space holds (15,000,000) is an error naming the counts, not an endless loop', () => {
    assert.throws(() => newInstanceIds(15_000_000, new Set(), Math.random), (err: unknown) =>
      err instanceof InstanceIdsExhaustedError && /cannot generate 15000000 new instance ids: 0 of 14348907/.test(err.message));
  });

  it('count + taken past half the space is refused before any draw', () => {
    let draws = 0;
    assert.throws(() => newInstanceIds(2, takenOfSize(MAX_IDS_IN_USE - 1), () => { draws++; return 0.5; }), InstanceIdsExhaustedError);
    assert.equal(draws, 0);
    assert.equal(newInstanceIds(1, takenOfSize(MAX_IDS_IN_USE - 1), Math.random).length, 1);
  });

  it('a random source that keeps colliding ends in an error after a bounded number of draws', () => {
    let draws = 0;
    assert.throws(() => newInstanceIds(2, new Set(), () => { draws++; return 0; }), InstanceIdsExhaustedError);
    assert.ok(draws <= 5 * 64 * 3, `draws: ${draws}`);
  });

  it('ids are distinct, not taken, sorted', () => {
    const taken = new Set(['bbbbb']);
    const ids = newInstanceIds(200, taken, Math.random);
    assert.equal(new Set(ids).size, 200);
    assert.ok(!ids.includes('bbbbb'));
    assert.deepEqual(ids, [...ids].sort());
  });
});

describe('instanceIdSource hands out ids batch by batch', () => {
  it('reused ids first, then fresh ones never repeating earlier batches; nothing drawn ahead', () => {
    let draws = 0;
    const next = instanceIdSource(['ccccc', 'ddddd'], new Set(['bbbbb']), () => { draws++; return Math.random(); });
    assert.deepEqual(next(1), ['ccccc']);
    assert.equal(draws, 0);
    const b2 = next(2);
    assert.ok(b2.includes('ddddd'));
    assert.equal(draws, 5);
    const b3 = next(4);
    assert.equal(draws, 25);
    const all = [...b2, ...b3, 'ccccc'];
    assert.equal(new Set(all).size, 7);
    assert.ok(!all.includes('bbbbb'));
  });
});
