import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import type { Failure } from './plan.js';
import { computeStatus, failureSummary, retryableFailures, sameStatus, statusPatch } from './status.js';

const t0 = new Date('2025-01-01T00:00:00.500Z');
const t1 = new Date('2025-01-01T00:05:00Z');
const rd = (status?: ResourceDistribution['status']): ResourceDistribution => ({ metadata: { name: 'rd', generation: 3 }, spec: { resource: {}, targets: {} }, status });
const conflict = (ns: string): Failure => ({ namespace: ns, condition: 'ConflictOccurred', message: 'conflict with existing resources because of the same namespace, group, version, kind and name' });

test('all six conditions in order; False/Succeeded when clean; zero counts left out', () => {
  const s = computeStatus(rd(), 2, 2, [], t0);
  assert.deepEqual(s.conditions?.map((c) => c.type), ['GetResourceFailed', 'CreateResourceFailed', 'UpdateResourceFailed', 'DeleteResourceFailed', 'ConflictOccurred', 'NamespaceNotExists']);
  assert.ok(s.conditions?.every((c) => c.status === 'False' && c.reason === 'Succeeded' && c.lastTransitionTime === '2025-01-01T00:00:00Z' && c.failedNamespace === undefined));
  assert.deepEqual({ ...s, conditions: undefined }, { desired: 2, succeeded: 2, observedGeneration: 3, conditions: undefined });
});

test('failures: True, failedNamespace in order, reason = last message, failed = desired − succeeded', () => {
  const s = computeStatus(rd(), 3, 1, [conflict('a'), { namespace: 'b', condition: 'NamespaceNotExists', message: 'namespace not found or is terminating' },
    { namespace: 'x', condition: 'CreateResourceFailed', message: 'first' }, { namespace: 'y', condition: 'CreateResourceFailed', message: 'second' }], t0);
  const byType = Object.fromEntries(s.conditions!.map((c) => [c.type, c]));
  assert.deepEqual(byType.ConflictOccurred, { type: 'ConflictOccurred', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z',
    reason: 'conflict with existing resources because of the same namespace, group, version, kind and name', failedNamespace: ['a'] });
  assert.deepEqual(byType.CreateResourceFailed?.failedNamespace, ['x', 'y']);
  assert.equal(byType.CreateResourceFailed?.reason, 'second');
  assert.equal(byType.NamespaceNotExists?.status, 'True');
  assert.deepEqual([s.desired, s.succeeded, s.failed], [3, 1, 2]);
});

test('lastTransitionTime moves only for conditions whose status flipped', () => {
  const before = computeStatus(rd(), 1, 0, [conflict('a')], t0);
  const after = computeStatus(rd(before), 1, 1, [], t1);
  const time = (type: string) => after.conditions!.find((c) => c.type === type)!.lastTransitionTime;
  assert.equal(time('ConflictOccurred'), '2025-01-01T00:05:00Z');
  assert.equal(time('GetResourceFailed'), '2025-01-01T00:00:00Z');
});

test('sameStatus: an unchanged pass writes nothing; a count or a namespace change does', () => {
  const s = computeStatus(rd(), 1, 0, [conflict('a')], t0);
  assert.equal(sameStatus(s, computeStatus(rd(s), 1, 0, [conflict('a')], t1)), true);
  assert.equal(sameStatus(s, computeStatus(rd(s), 2, 0, [conflict('a'), conflict('b')], t1)), false);
  assert.equal(sameStatus(undefined, s), false);
});

test('statusPatch removes counts that dropped to zero', () => {
  const s = computeStatus(rd(), 0, 0, [], t0);
  assert.deepEqual({ ...statusPatch(s).status, conditions: undefined }, { desired: null, succeeded: null, failed: null, observedGeneration: 3, conditions: undefined });
});

test('retry only for API failures; the summary names each failing condition once', () => {
  const fs: Failure[] = [conflict('a'), { namespace: 'b', condition: 'UpdateResourceFailed', message: 'boom' }, { namespace: 'c', condition: 'UpdateResourceFailed', message: 'bang' }];
  assert.deepEqual(retryableFailures(fs).map((f) => f.namespace), ['b', 'c']);
  assert.equal(failureSummary(retryableFailures(fs)), 'UpdateResourceFailed: Internal error: bang');
});
