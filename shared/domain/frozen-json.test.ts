import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepFreeze, isFrozenJson, jsonText, rememberStringJson } from './frozen-json.js';

test('deepFreeze freezes every level and marks plain JSON data', () => {
  const v = deepFreeze({ a: [{ b: 'x' }, 1, null], c: { d: true } });
  assert.ok(Object.isFrozen(v) && Object.isFrozen(v.a) && Object.isFrozen(v.a[0]) && Object.isFrozen(v.c));
  assert.ok(isFrozenJson(v) && isFrozenJson(v.a) && isFrozenJson(v.c));
  assert.throws(() => (v.a as unknown[]).push(2), TypeError);
  assert.throws(() => ((v.c as { d: boolean }).d = false), TypeError);
});

test('a value holding something freezing cannot fix is frozen but never remembered', () => {
  const date = new Date(0);
  const v = deepFreeze({ when: date, ok: { x: 1 } });
  assert.ok(Object.isFrozen(v) && Object.isFrozen(date));
  assert.equal(isFrozenJson(v), false, 'a Date changes through setTime despite the freeze');
  assert.equal(isFrozenJson(v.ok), true);
  date.setTime(1000);
  assert.equal(jsonText(v), JSON.stringify(v), 'its text follows the change');
  const fn = deepFreeze({ f: () => 1 });
  assert.equal(isFrozenJson(fn), false);
});

test('jsonText is JSON.stringify, for frozen and unfrozen values alike', () => {
  const frozen = deepFreeze({ name: 'ü"<>&\u2028', list: [1, 'two', { three: [null] }], u: undefined });
  for (const v of [frozen, frozen, { a: 1 }, [1, undefined], 'str"', 12, null, undefined, true]) assert.equal(jsonText(v), JSON.stringify(v));
  const mutable = { a: 1 };
  assert.equal(jsonText(mutable), '{"a":1}');
  mutable.a = 2;
  assert.equal(jsonText(mutable), '{"a":2}', 'unfrozen values are never remembered');
});

test('a long string remembered with its JSON is encoded from it; others are stringified', () => {
  const value = `${'"q\\'.repeat(100)}ü😀\u2028`;
  rememberStringJson(value, JSON.stringify(value));
  assert.equal(jsonText(value), JSON.stringify(value));
  assert.equal(jsonText(value.slice(1)), JSON.stringify(value.slice(1)));
  assert.equal(jsonText(`${value}x`), JSON.stringify(`${value}x`));
});
