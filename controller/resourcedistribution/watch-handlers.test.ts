import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResourceDistribution, ResourceDistributionTargets } from '../../shared/api/resource-distribution.js';
import { copyHandler, namespaceHandler, rdHandler } from './watch-handlers.js';

const rd = (name: string, targets: ResourceDistributionTargets, extra: Partial<ResourceDistribution> = {}): ResourceDistribution =>
  ({ metadata: { name, uid: `${name}-uid`, generation: 1 }, spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }, targets }, ...extra });
const list = (...names: string[]) => ({ list: names.map((name) => ({ name })) });
const rds = [
  rd('all', { allNamespaces: true, excludedNamespaces: list('skip') }),
  rd('listed', { includedNamespaces: list('ns-a', 'kube-system') }),
  rd('team', { namespaceLabelSelector: { matchLabels: { team: 'x' } } }),
  rd('broken', { namespaceLabelSelector: { matchExpressions: [{ key: 'k', operator: 'Near' }] } }),
];

function recorder() {
  const keys: string[] = [];
  return { keys, add: (k: string) => keys.push(k), take: () => keys.splice(0).sort() };
}

test('rdHandler: creates, deletes and new generations enqueue; status-only updates do not', () => {
  const r = recorder();
  const h = rdHandler(r.add);
  const obj = rd('x', {});
  h(obj, 'add');
  h({ ...obj, status: { desired: 1 } }, 'update');
  assert.deepEqual(r.take(), ['x']);
  h({ ...obj, metadata: { ...obj.metadata, generation: 2 } }, 'update');
  h({ ...obj, metadata: { ...obj.metadata, generation: 2 } }, 'delete');
  assert.deepEqual(r.take(), ['x', 'x']);
  h({ ...obj, metadata: { ...obj.metadata, uid: 'new' } }, 'add');
  assert.deepEqual(r.take(), ['x'], 'a recreated namesake is new');
});

const nsCases: { name: string; events: [verb: 'add' | 'update' | 'delete', name: string, labels?: Record<string, string>][]; want: string[] }[] = [
  { name: 'a new namespace: allNamespaces, included and selector matches', events: [['add', 'ns-a', { team: 'x' }]], want: ['all', 'listed', 'team'] },
  { name: 'a new excluded namespace is not for the RD that excludes it', events: [['add', 'skip']], want: [] },
  { name: 'a new kube-* namespace is for no RD, even one listing it (review H5)', events: [['add', 'kube-system', { team: 'x' }]], want: [] },
  { name: 'labels changed: RDs whose selector matched the new labels', events: [['add', 'n'], ['update', 'n', { team: 'x' }]], want: ['all', 'team'] },
  { name: 'labels changed: RDs whose selector matched the old labels', events: [['add', 'n', { team: 'x' }], ['update', 'n', { team: 'y' }]], want: ['all', 'team', 'team'] },
  { name: 'an update without a label change enqueues nothing', events: [['add', 'n', { team: 'x' }], ['update', 'n', { team: 'x' }]], want: ['all', 'team'] },
  { name: 'a deleted namespace: RDs that list it', events: [['add', 'ns-a'], ['delete', 'ns-a']], want: ['all', 'listed', 'listed'] },
];
for (const tc of nsCases) {
  test(`namespaceHandler: ${tc.name}`, () => {
    const r = recorder();
    const h = namespaceHandler(() => rds, r.add);
    for (const [verb, name, labels] of tc.events) h({ metadata: { name, labels } }, verb);
    assert.deepEqual(r.take(), tc.want.sort());
  });
}

test('copyHandler: updates and deletes of a copy enqueue its RD; creates and unowned objects do not', () => {
  const r = recorder();
  const h = copyHandler('ConfigMap', () => rds, r.add);
  const copy = { metadata: { name: 'cm', namespace: 'n', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'all', uid: 'all-uid', controller: true }] } };
  h(copy, 'add');
  h(copy, 'update');
  h(copy, 'delete');
  h({ metadata: { name: 'cm', namespace: 'n', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'all', uid: 'p', controller: true }] } }, 'update');
  assert.deepEqual(r.take(), ['all', 'all']);
});

test('copyHandler: deleting an object an RD reported as a conflict enqueues that RD', () => {
  const r = recorder();
  const conflicted = rd('listed', { includedNamespaces: list('n') }, { status: { conditions: [{ type: 'ConflictOccurred', status: 'True', failedNamespace: ['n'] }] } });
  const cms = copyHandler('ConfigMap', () => [conflicted], r.add);
  cms({ metadata: { name: 'cm', namespace: 'n' } }, 'update');
  cms({ metadata: { name: 'other', namespace: 'n' } }, 'delete');
  cms({ metadata: { name: 'cm', namespace: 'elsewhere' } }, 'delete');
  copyHandler('Secret', () => [conflicted], r.add)({ metadata: { name: 'cm', namespace: 'n' } }, 'delete');
  assert.deepEqual(r.take(), []);
  cms({ metadata: { name: 'cm', namespace: 'n' } }, 'delete');
  assert.deepEqual(r.take(), ['listed']);
});
