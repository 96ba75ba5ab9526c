import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Namespace } from '@kubernetes/client-node';
import type { ResourceDistributionTargets } from '../../shared/api/resource-distribution.js';
import { LabelSelectorError } from '../../shared/domain/label-selector.js';
import { matchesTargets, matchesViaSelector, targetNamespaces } from './targets.js';

const ns = (name: string, labels?: Record<string, string>): V1Namespace => ({ metadata: { name, labels } });
const world = [
  ns('default'), ns('kube-system', { group: 'test' }), ns('kube-public'), ns('kube-node-lease'),
  ns('ns-1'), ns('ns-2', { group: 'test' }), ns('ns-3', { group: 'test' }), ns('ns-5', { group: 'other' }),
  ns('kruise-system', { 'control-plane': 'openkruise', group: 'test' }),
];
const list = (...names: string[]) => ({ list: names.map((name) => ({ name })) });

const cases: { name: string; targets: ResourceDistributionTargets; matched: string[] }[] = [
  { name: 'seed example: included (existing or not) ∪ selector − excluded',
    targets: { includedNamespaces: list('ns-1', 'ns-4'), namespaceLabelSelector: { matchLabels: { group: 'test' } }, excludedNamespaces: list('ns-3') },
    matched: ['ns-1', 'ns-2', 'ns-4'] },
  { name: 'allNamespaces: every existing namespace except kube-* and kruise ones',
    targets: { allNamespaces: true }, matched: ['default', 'ns-1', 'ns-2', 'ns-3', 'ns-5'] },
  { name: 'allNamespaces ignores includedNamespaces and the selector but honours excludedNamespaces',
    targets: { allNamespaces: true, includedNamespaces: list('nowhere'), namespaceLabelSelector: { matchLabels: { group: 'none' } }, excludedNamespaces: list('default', 'ns-1') },
    matched: ['ns-2', 'ns-3', 'ns-5'] },
  { name: 'a selector never picks kube-* or kruise namespaces', targets: { namespaceLabelSelector: { matchLabels: { group: 'test' } } }, matched: ['ns-2', 'ns-3'] },
  { name: 'kube-* and kruise namespaces listed in includedNamespaces are skipped (review H5)',
    targets: { includedNamespaces: list('kube-system', 'kube-public', 'kube-future', 'kruise-system', 'ns-1') }, matched: ['ns-1'] },
  { name: 'an empty selector selects nothing', targets: { namespaceLabelSelector: {} }, matched: [] },
  { name: 'matchExpressions alone select', targets: { namespaceLabelSelector: { matchExpressions: [{ key: 'group', operator: 'In', values: ['other'] }] } }, matched: ['ns-5'] },
  { name: 'NotIn matches namespaces without the label (but not system ones)',
    targets: { namespaceLabelSelector: { matchExpressions: [{ key: 'group', operator: 'NotIn', values: ['test'] }] } },
    matched: ['default', 'ns-1', 'ns-5'] },
  { name: 'no targets at all', targets: {}, matched: [] },
];

for (const tc of cases) {
  test(`targetNamespaces: ${tc.name}`, () => {
    const got = targetNamespaces(tc.targets, world);
    assert.deepEqual(got.matched, tc.matched);
    const existing = world.map((n) => n.metadata!.name!);
    assert.deepEqual(got.unmatched, existing.filter((n) => !tc.matched.includes(n)).sort(), 'unmatched = existing − matched, sorted');
  });
  test(`matchesTargets agrees with targetNamespaces: ${tc.name}`, () => {
    const got = world.filter((n) => matchesTargets(tc.targets, n.metadata!.name!, n.metadata!.labels)).map((n) => n.metadata!.name!);
    assert.deepEqual(got.sort(), tc.matched.filter((n) => world.some((w) => w.metadata!.name === n)));
  });
}

test('targetNamespaces: an invalid selector is a LabelSelectorError', () => {
  assert.throws(() => targetNamespaces({ namespaceLabelSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } }, world), LabelSelectorError);
});

test('matchesViaSelector: only through the selector, never for system namespaces', () => {
  const t: ResourceDistributionTargets = { allNamespaces: true, includedNamespaces: list('ns-1'), namespaceLabelSelector: { matchLabels: { group: 'test' } } };
  assert.equal(matchesViaSelector(t, 'ns-2', { group: 'test' }), true);
  assert.equal(matchesViaSelector(t, 'ns-1', {}), false);
  assert.equal(matchesViaSelector(t, 'kube-system', { group: 'test' }), false);
  assert.equal(matchesViaSelector({}, 'ns-2', { group: 'test' }), false);
});
