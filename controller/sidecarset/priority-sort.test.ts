import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { UpdatePriorityStrategy } from '../../shared/api/sidecarset.js';
import { prioritySort, trailingInt } from './priority-sort.js';

const weights: UpdatePriorityStrategy = {
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { key: 'foo' } } },
    { weight: 10, matchSelector: { matchLabels: { key: 'bar' } } },
  ],
};
const three = (w3: number): UpdatePriorityStrategy => ({
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { key1: 'foo' } } },
    { weight: 10, matchSelector: { matchLabels: { key2: 'bar' } } },
    { weight: w3, matchSelector: { matchLabels: { key3: 'baz' } } },
  ],
});
const ordered: UpdatePriorityStrategy = { orderPriority: [{ orderedKey: 'key1' }, { orderedKey: 'key2' }] };

// `first`: whether pod I goes before pod J. I sits at the larger index; ties keep the order (v1.9.0), so J stays first.
const cases: { name: string; s: UpdatePriorityStrategy; i: Record<string, string>; j: Record<string, string>; first: boolean }[] = [
  { name: 'equal weight (none): order kept', s: weights, i: {}, j: {}, first: false },
  { name: 'equal weight: order kept', s: weights, i: { key: 'foo' }, j: { key: 'foo' }, first: false },
  { name: 'lower weight goes later', s: weights, i: { key: 'bar' }, j: { key: 'foo' }, first: false },
  { name: 'no weight goes after some weight', s: weights, i: {}, j: { key: 'bar' }, first: false },
  { name: 'weights add up: 10+15 beats 20', s: three(15), i: { key1: 'foo' }, j: { key2: 'bar', key3: 'baz' }, first: false },
  { name: 'weights add up: 10+5 loses to 20', s: three(5), i: { key2: 'bar', key3: 'baz' }, j: { key1: 'foo' }, first: false },
  { name: 'order: no keys on either: order kept', s: ordered, i: {}, j: {}, first: false },
  { name: 'order: same key, larger trailing number first', s: ordered, i: { key1: 'o-10' }, j: { key1: 'o-5' }, first: true },
  { name: 'order: same key and number: order kept', s: ordered, i: { key1: 'o-10' }, j: { key1: 'o-10' }, first: false },
  { name: 'order: same key, smaller trailing number later', s: ordered, i: { key1: 'o-10' }, j: { key1: 'o-20' }, first: false },
  { name: 'order: a later key goes after an earlier key', s: ordered, i: { key2: 'o-20' }, j: { key1: 'o-10' }, first: false },
  { name: 'order: same later key, larger number first', s: ordered, i: { key2: 'o-20' }, j: { key2: 'o-10' }, first: true },
  { name: 'order: pods without any key go first', s: ordered, i: {}, j: { key1: 'o-1' }, first: true },
];

for (const tc of cases) {
  test(tc.name, () => {
    const pods = [tc.j, tc.i].map((labels) => ({ metadata: { labels } }) as Pod);
    assert.deepEqual(prioritySort(tc.s, pods, [0, 1]), tc.first ? [1, 0] : [0, 1]);
  });
}

// v1.9.0 Test_prioritySort_Sort "priority strategy, keep original order if not match any priority rule".
test('pods matching no term keep their order behind the matching ones', () => {
  const s: UpdatePriorityStrategy = { weightPriority: [
    { weight: 100, matchSelector: { matchLabels: { foo: 'bar' } } },
    { weight: 90, matchSelector: { matchLabels: { hello: 'world' } } },
  ] };
  const pods = [{ hello: 'world' }, {}, { foo: 'bar' }, {}].map((labels) => ({ metadata: { labels } }) as Pod);
  assert.deepEqual(prioritySort(s, pods, [0, 1, 2, 3]), [2, 0, 1, 3]);
});

test('no terms leave the order alone', () => {
  const pods = [{}, {}, {}].map((labels) => ({ metadata: { labels } }) as Pod);
  assert.deepEqual(prioritySort({}, pods, [0, 2, 1]), [0, 2, 1]);
  assert.deepEqual(prioritySort(undefined, pods, [0, 2, 1]), [0, 2, 1]);
});

test('trailing integers: digits at the end only, none is 0', () => {
  assert.deepEqual(['o-10', 'abc', '7', 'v1.2', ''].map(trailingInt), [10, 0, 7, 2, 0]);
});
