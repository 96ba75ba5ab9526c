import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatViolation, formatViolations, type Violation } from './errors.js';

const cases: { name: string; v: Violation; want: string }[] = [
  { name: 'a required value without detail has no trailing colon', v: { field: 'spec.selector', type: 'Required value', detail: '' }, want: 'spec.selector: Required value' },
  { name: 'a required value with detail', v: { field: 'spec.selector', type: 'Required value', detail: 'no selector defined for SidecarSet' }, want: 'spec.selector: Required value: no selector defined for SidecarSet' },
  { name: 'an invalid value shows the value then the detail', v: { field: 'spec.containers.name', type: 'Invalid value', value: 'x', detail: 'container x is not found' }, want: 'spec.containers.name: Invalid value: "x": container x is not found' },
  { name: 'an invalid value without a value renders null like Go', v: { field: 'revision', type: 'Invalid value', detail: 'Cannot find' }, want: 'revision: Invalid value: null: Cannot find' },
  { name: 'forbidden never shows a value', v: { field: 'spec', type: 'Forbidden', value: 1, detail: 'immutable' }, want: 'spec: Forbidden: immutable' },
];
for (const tc of cases) test(tc.name, () => assert.equal(formatViolation(tc.v), tc.want));

test('several violations aggregate as a bracketed list, one stays bare', () => {
  const a: Violation = { field: 'a', type: 'Required value', detail: '' };
  assert.equal(formatViolations([a]), 'a: Required value');
  assert.equal(formatViolations([a, a]), '[a: Required value, a: Required value]');
});
