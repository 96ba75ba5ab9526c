import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OnceSet } from './once-set.js';

test('OnceSet keeps the newest `limit` entries and forgets the oldest', () => {
  const s = new OnceSet(3);
  for (const k of ['a', 'b', 'c', 'd']) s.add(k);
  assert.equal(s.size, 3);
  assert.deepEqual(['a', 'b', 'c', 'd'].map((k) => s.has(k)), [false, true, true, true]);
  s.add('b');
  s.add('e');
  assert.deepEqual(['b', 'c', 'd', 'e'].map((k) => s.has(k)), [true, false, true, true], 're-adding refreshes an entry');
});
