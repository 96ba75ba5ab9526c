import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LabelSelector } from '../../api/meta.js';
import { labelSelectorConversionError, validateLabelSelector } from './selector-validation.js';

describe('validateLabelSelector', () => {
  const cases: { name: string; sel: LabelSelector; fields: string[] }[] = [
    { name: 'a plain matchLabels selector is valid', sel: { matchLabels: { 'app.kubernetes.io/name': 'web' } }, fields: [] },
    { name: 'a key with two slashes is invalid', sel: { matchLabels: { 'a/b/c': 'x' } }, fields: ['s.matchLabels'] },
    { name: 'a value ending in a dash is invalid', sel: { matchLabels: { a: 'x-' } }, fields: ['s.matchLabels'] },
    { name: 'In without values is required', sel: { matchExpressions: [{ key: 'a', operator: 'In' }] }, fields: ['s.matchExpressions[0].values'] },
    { name: 'Exists with values is forbidden', sel: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, fields: ['s.matchExpressions[0].values'] },
    { name: 'an unknown operator is invalid', sel: { matchExpressions: [{ key: 'a', operator: 'Near', values: ['x'] }] }, fields: ['s.matchExpressions[0].operator'] },
    { name: 'an uppercase prefix is invalid', sel: { matchExpressions: [{ key: 'Example.com/a', operator: 'Exists' }] }, fields: ['s.matchExpressions[0].key'] },
    { name: 'a bad value in an expression is reported at its index', sel: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['ok', 'bad-'] }] }, fields: ['s.matchExpressions[0].values[1]'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateLabelSelector(c.sel, 's').map((v) => v.field), c.fields));

  it('conversion fails on the same bad value, so kruise reports it twice', () => {
    assert.match(labelSelectorConversionError({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['ok', 'bad-'] }] }) ?? '', /values\[1\]\[a\]: Invalid value: "bad-"/);
    assert.equal(labelSelectorConversionError({ matchLabels: { a: 'b' } }), undefined);
  });
});
