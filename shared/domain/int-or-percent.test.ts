import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxUnavailableValue, partitionReplicas } from './int-or-percent.js';

const partitions: { name: string; value: number | string | undefined; total: number; want: number }[] = [
  { name: 'unset partition keeps nothing back', value: undefined, total: 10, want: 0 },
  { name: 'a number is taken as is', value: 3, total: 10, want: 3 },
  { name: 'a number above the total is clamped', value: 30, total: 10, want: 10 },
  { name: 'a negative number is clamped to 0', value: -1, total: 10, want: 0 },
  { name: 'percent rounds up', value: '25%', total: 10, want: 3 },
  { name: 'a fractional percent is allowed', value: '12.5%', total: 8, want: 1 },
  { name: 'below 100% never keeps all pods back when there are several', value: '99%', total: 10, want: 9 },
  { name: '100% keeps all back', value: '100%', total: 10, want: 10 },
  { name: 'a single pod at 50% is kept back', value: '50%', total: 1, want: 1 },
  { name: 'a string without % is invalid and counts as 0', value: '10', total: 10, want: 0 },
];
for (const tc of partitions) test(`partition: ${tc.name}`, () => assert.equal(partitionReplicas(tc.value, tc.total), tc.want));

const unavailable: { name: string; value: number | string | undefined; total: number; want: number }[] = [
  { name: 'unset means 1', value: undefined, total: 10, want: 1 },
  { name: 'a number is taken as is', value: 2, total: 10, want: 2 },
  { name: 'percent rounds up', value: '10%', total: 15, want: 2 },
  { name: '20% of 10', value: '20%', total: 10, want: 2 },
  { name: 'a string without % is read as a percentage', value: '50', total: 4, want: 2 },
  { name: 'an unparseable string means 0', value: 'x%', total: 4, want: 0 },
  { name: 'fractional percent is not an integer and means 0', value: '12.5%', total: 8, want: 0 },
];
for (const tc of unavailable) test(`maxUnavailable: ${tc.name}`, () => assert.equal(maxUnavailableValue(tc.value, tc.total), tc.want));
