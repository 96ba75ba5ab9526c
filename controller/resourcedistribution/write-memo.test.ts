import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../shared/clock.js';
import { WriteMemo } from './write-memo.js';

test('a write is pending while the cache shows the version it replaced, and forgotten once the cache moves', () => {
  const m = new WriteMemo<string>(new FakeClock(0));
  m.wrote('cm/a', '5', 'h1');
  assert.equal(m.pending('cm/a', '5'), 'h1');
  assert.equal(m.pending('cm/a', '7'), undefined, 'the cache already shows a newer version');
  m.seen('cm/a', '5', false);
  assert.equal(m.pending('cm/a', '5'), 'h1', 'an event for the replaced version itself changes nothing');
  m.seen('cm/a', '6', false);
  assert.equal(m.size, 0);
});

test('a create is pending while the cache shows nothing; its add event clears it', () => {
  const m = new WriteMemo<string>(new FakeClock(0));
  m.wrote('cm/b', undefined, 'h');
  assert.equal(m.pending('cm/b', undefined), 'h');
  assert.equal(m.pending('cm/b', '9'), undefined, 'something else is there now');
  m.seen('cm/b', '9', false);
  assert.equal(m.size, 0);
});

test('a delete event always clears; entries older than the ttl are not trusted', async () => {
  const clock = new FakeClock(0);
  const m = new WriteMemo<string>(clock, 1_000);
  m.wrote('x', '1', 'deleted');
  m.seen('x', '1', true);
  assert.equal(m.pending('x', '1'), undefined);
  m.wrote('y', '1', 'h');
  await clock.advance(1_001);
  assert.equal(m.pending('y', '1'), undefined);
  assert.equal(m.size, 0);
});
