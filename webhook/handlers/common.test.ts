import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Violation } from '../../shared/errors.js';
import { fromViolations, MAX_REPORTED_VIOLATIONS } from './common.js';

test('a refusal renders at most MAX_REPORTED_VIOLATIONS violations, then says how many more', () => {
  // Each carries a large value, as validators do (a whole list): rendering all of them would be n × its size.
  const value = Array.from({ length: 1_000 }, (_, i) => `item-${i}`);
  const vs: Violation[] = Array.from({ length: 5_000 }, (_, i) => ({ field: `spec.list[${i}]`, type: 'Invalid value', value, detail: 'bad' }));
  const r = fromViolations(vs, 400);
  assert.deepEqual([r.allowed, r.status?.code], [false, 400]);
  assert.match(r.status!.message!, /^\[spec\.list\[0\]: Invalid value: .*spec\.list\[99\]: Invalid value: .*\] and 4900 more errors$/);
  assert.ok(r.status!.message!.length < MAX_REPORTED_VIOLATIONS * JSON.stringify(value).length * 1.1);
});

test('up to the limit every violation is rendered', () => {
  const vs: Violation[] = Array.from({ length: MAX_REPORTED_VIOLATIONS }, (_, i) => ({ field: `f${i}`, type: 'Required value', detail: '' }));
  assert.equal(fromViolations(vs, 422).status!.message!.split(', ').length, MAX_REPORTED_VIOLATIONS);
});
