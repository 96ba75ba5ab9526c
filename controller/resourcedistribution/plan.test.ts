import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Namespace } from '@kubernetes/client-node';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import { planDistribution, type Step } from './plan.js';
import { decodeResource, type CopyObject, type DistributedResource } from './resource.js';

const rd: ResourceDistribution = { metadata: { name: 'sample', uid: 'rd-uid' }, spec: { resource: {}, targets: {} } };
const resource = decodeResource({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }) as DistributedResource;
const mine = (data: Record<string, string>): CopyObject => ({ metadata: { name: 'cm', uid: `u-${JSON.stringify(data)}`,
  ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'sample', uid: 'rd-uid', controller: true }] }, data });
const foreign: CopyObject = { metadata: { name: 'cm', uid: 'f' }, data: { a: 'theirs' } };

const describe = (s: Step) => (s.op === 'fail' ? `fail ${s.failure.condition} ${s.failure.namespace}` : `${s.op} ${s.namespace}`);

const cases: {
  name: string; matched: string[]; unmatched: string[];
  namespaces: Record<string, 'live' | 'terminating'>; existing: Record<string, CopyObject>;
  steps: string[]; inSync: number;
}[] = [
  { name: 'creates where missing, leaves an up-to-date copy alone', matched: ['a', 'b'], unmatched: [],
    namespaces: { a: 'live', b: 'live' }, existing: { b: mine({ a: '1' }) }, steps: ['create a'], inSync: 1 },
  { name: 'updates a copy whose data drifted', matched: ['a'], unmatched: [], namespaces: { a: 'live' }, existing: { a: mine({ a: 'edited' }) },
    steps: ['update a'], inSync: 0 },
  { name: 'a same-named object it does not control is a conflict, never written', matched: ['a'], unmatched: ['b'],
    namespaces: { a: 'live', b: 'live' }, existing: { a: foreign, b: foreign }, steps: ['fail ConflictOccurred a'], inSync: 0 },
  { name: 'a missing or terminating namespace is NamespaceNotExists', matched: ['gone', 'dying'], unmatched: [],
    namespaces: { dying: 'terminating' }, existing: {}, steps: ['fail NamespaceNotExists dying', 'fail NamespaceNotExists gone'].sort(), inSync: 0 },
  { name: 'its copies in unmatched namespaces are deleted, others ignored', matched: [], unmatched: ['a', 'b', 'c', 'dying'],
    namespaces: { a: 'live', b: 'live', c: 'live', dying: 'terminating' }, existing: { a: mine({ a: '1' }), b: foreign, dying: mine({ a: '1' }) },
    steps: ['delete a'], inSync: 0 },
];

for (const tc of cases) {
  test(`planDistribution: ${tc.name}`, () => {
    const nsObj = (n: string): V1Namespace | undefined => tc.namespaces[n] === undefined ? undefined
      : { metadata: { name: n, ...(tc.namespaces[n] === 'terminating' ? { deletionTimestamp: new Date() } : {}) } };
    const plan = planDistribution({ rd, resource, matched: tc.matched, unmatched: tc.unmatched, namespace: nsObj, existing: (n) => tc.existing[n] });
    assert.deepEqual(plan.steps.map(describe).sort(), tc.steps);
    assert.equal(plan.inSync, tc.inSync);
  });
}

test('planDistribution: distribution steps come before clean-up steps', () => {
  const plan = planDistribution({ rd, resource, matched: ['z'], unmatched: ['a'], namespace: (n) => ({ metadata: { name: n } }),
    existing: (n) => (n === 'a' ? mine({ a: '1' }) : undefined) });
  assert.deepEqual(plan.steps.map(describe), ['create z', 'delete a']);
});

test('planDistribution: writes this process made that the cache has not shown yet are not planned again', () => {
  const plan = planDistribution({ rd, resource, matched: ['a', 'b'], unmatched: ['c'], namespace: (n) => ({ metadata: { name: n } }),
    existing: (n) => (n === 'b' ? mine({ a: 'old' }) : n === 'c' ? mine({ a: '1' }) : undefined),
    inFlight: (n) => (n === 'c' ? 'deleted' : 'written') });
  assert.deepEqual(plan, { steps: [], inSync: 2 });
});
