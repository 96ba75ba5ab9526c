import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LabelSelector } from '../api/meta.js';
import { compileLabelSelector, LabelSelectorError, matchesLabelSelector } from './label-selector.js';

const cases: { name: string; selector: LabelSelector; labels?: Record<string, string>; want: boolean }[] = [
  { name: 'an empty selector matches any labels', selector: {}, labels: { a: '1' }, want: true },
  { name: 'an empty selector matches a pod without labels', selector: {}, want: true },
  { name: 'matchLabels requires every pair', selector: { matchLabels: { a: '1', b: '2' } }, labels: { a: '1' }, want: false },
  { name: 'matchLabels matches equal values', selector: { matchLabels: { a: '1' } }, labels: { a: '1', z: 'x' }, want: true },
  { name: 'matchLabels with an empty value does not match an absent label', selector: { matchLabels: { a: '' } }, labels: {}, want: false },
  { name: 'In matches a listed value', selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '2'] }] }, labels: { a: '2' }, want: true },
  { name: 'In fails when the label is absent', selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['1'] }] }, labels: {}, want: false },
  { name: 'NotIn matches when the label is absent', selector: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, labels: {}, want: true },
  { name: 'NotIn fails on a listed value', selector: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, labels: { a: '1' }, want: false },
  { name: 'Exists needs the key', selector: { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, labels: { a: '' }, want: true },
  { name: 'DoesNotExist fails when the key is present', selector: { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, labels: { a: 'x' }, want: false },
  {
    name: 'matchLabels and expressions are ANDed',
    selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe'] }] },
    labels: { app: 'web', tier: 'be' },
    want: false,
  },
];

for (const tc of cases) {
  test(tc.name, () => {
    assert.equal(matchesLabelSelector(tc.selector, tc.labels), tc.want);
    assert.equal(compileLabelSelector(tc.selector)(tc.labels), tc.want, 'the compiled selector agrees');
  });
}

test('a compiled invalid selector throws its LabelSelectorError when used, not when compiled', () => {
  const match = compileLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['1'] }] });
  assert.throws(() => match({ a: '1' }), LabelSelectorError);
});

test('an unknown operator throws LabelSelectorError even if matchLabels already fail', () => {
  const selector = { matchLabels: { a: 'x' }, matchExpressions: [{ key: 'a', operator: 'Equals', values: ['1'] }] };
  assert.throws(() => matchesLabelSelector(selector, {}), (e: unknown) => e instanceof LabelSelectorError && /not a valid label selector operator/.test(e.message));
});

test('In without values and Exists with values are invalid', () => {
  assert.throws(() => matchesLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, {}), LabelSelectorError);
  assert.throws(() => matchesLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, {}), LabelSelectorError);
});
