import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { expandScatterTerms, scatterSort } from './scatter-sort.js';

type Labels = Record<string, string> | null;
const A = { key: 'labelA', value: 'AAA' };
const B = { key: 'labelB', value: 'BBB' };
const C = { key: 'labelC', value: 'CCC' };
const a = { labelA: 'AAA' };
const b = { labelB: 'BBB' };
const c = { labelC: 'CCC' };

// Expected orders are the behaviour of kruise's scatter sort (pkg/util/updatesort), including its quirks: the last
// matching pod always goes last, and groups follow the density of the whole pod list, not just the waiting pods.
const cases: { name: string; labels: Labels[]; terms: { key: string; value: string }[]; want: number[] }[] = [
  { name: 'a single pod stays', labels: [{ ...a, ...b }], terms: [A], want: [0] },
  { name: 'no terms keep the order', labels: [{}, {}, {}, {}, {}, {}], terms: [], want: [0, 1, 2, 3, 4, 5] },
  { name: 'two matching pods among four: one first, the last one last', labels: [{}, {}, {}, {}, a, a], terms: [A], want: [4, 0, 1, 2, 3, 5] },
  { name: 'odd matched and odd unmatched interleave in groups', labels: [{}, {}, {}, a, a, a], terms: [A], want: [3, 0, 1, 4, 2, 5] },
  { name: 'more matched than unmatched', labels: [{}, {}, a, a, a, a], terms: [A], want: [2, 3, 0, 4, 1, 5] },
  { name: 'matched interleaved with unmatched', labels: [{}, a, {}, a, {}, {}, a, a, a], terms: [A], want: [1, 0, 3, 2, 6, 4, 7, 5, 8] },
  { name: 'one matching pod is nothing to scatter', labels: [{}, {}, {}, {}, { sdfb: 'eee' }, { dsf: 'same' }, b, a, a, { ...a, ...b }], terms: [B], want: [6, 0, 1, 2, 3, 4, 5, 7, 8, 9] },
  { name: 'two terms: the one more pods match scatters first', labels: [b, b, {}, {}, a, a], terms: [A, B], want: [0, 4, 2, 3, 5, 1] },
  { name: 'two terms, term order breaks count ties (A then B)', labels: [{}, {}, {}, {}, { sdfb: 'eee' }, { dsf: 'same' }, b, a, a, b], terms: [B, A], want: [7, 6, 0, 1, 2, 3, 4, 5, 9, 8] },
  { name: 'two terms, term order breaks count ties (B then A)', labels: [{}, {}, {}, {}, { sdfb: 'eee' }, { dsf: 'same' }, b, a, a, b], terms: [A, B], want: [6, 7, 0, 1, 2, 3, 4, 5, 8, 9] },
  { name: 'three terms', labels: [{}, a, a, b, b, c, c, c, c, c], terms: [A, B, C], want: [3, 1, 5, 0, 6, 7, 8, 9, 2, 4] },
  { name: 'three terms, pods with several labels', labels: [{}, a, { ...a, ...c }, { ...b, ...c }, b, {}, {}, c, c, c], terms: [A, B, C], want: [3, 2, 0, 7, 8, 5, 6, 9, 1, 4] },
  { name: 'missing pods are skipped, not counted', labels: [{}, a, { ...a, ...c }, { ...b, ...c }, b, null, {}, {}, c, c, c], terms: [A, B, C], want: [3, 2, 0, 8, 9, 6, 7, 10, 1, 4] },
];

for (const tc of cases) {
  test(tc.name, () => {
    const pods = tc.labels.map((l, i) => (l === null ? undefined : ({ metadata: { name: String(i), labels: l } } as Pod)));
    const indexes = pods.flatMap((p, i) => (p ? [i] : []));
    assert.deepEqual(scatterSort(tc.terms, pods, indexes), tc.want);
  });
}

const continuous = [
  { labels: [{}, {}, {}, {}, a, a, a], waiting: [0, 1, 2, 3, 4, 5], want: [0, 1, 4, 2, 3, 5] },
  { labels: [a, a, {}, {}, {}, {}, {}, {}, {}, a], waiting: [0, 1, 2, 3, 4, 5, 6], want: [2, 0, 3, 4, 5, 6, 1] },
];
for (const [i, tc] of continuous.entries()) {
  test(`continuous sort ${i + 1}: only waiting pods move, group sizes follow the density of all pods`, () => {
    const pods = tc.labels.map((l, n) => ({ metadata: { name: String(n), labels: l } }) as Pod);
    assert.deepEqual(scatterSort([A], pods, tc.waiting), tc.want);
  });
}

test('key=* expands to one term per value present on the pods, first appearance first, no duplicates', () => {
  const pods = [{ mode: 'AAA' }, { mode: 'BBB' }, {}, { mode: 'AAA' }].map((l) => ({ metadata: { labels: l } }) as Pod);
  assert.deepEqual(expandScatterTerms([{ key: 'mode', value: '*' }, { key: 'mode', value: 'BBB' }], pods), [
    { key: 'mode', value: 'AAA' }, { key: 'mode', value: 'BBB' },
  ]);
});
