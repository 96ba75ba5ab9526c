import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { calculateDiffs } from './diff.js';
import { pod, T0 } from './fixtures.js';
import { resolveStrategy } from './strategy-values.js';
import { limitUpdates, updateCandidates } from './update.js';

/** Diff + candidates + limit without sorting, as upstream's TestCalculateUpdateCount. */
function updateCount(cs: CloneSet, pods: Pod[]): number {
  const strategy = resolveStrategy(cs);
  const diffs = calculateDiffs({ pods, updateRevision: 'new', strategy, nowMs: T0 });
  if (diffs.updateNum === 0) return 0;
  return limitUpdates(updateCandidates(pods, 'new', diffs.updateNum), pods, 'new', diffs, 0, T0).length;
}

const cs = (replicas: number, u: NonNullable<CloneSet['spec']>['updateStrategy'] = {}): CloneSet => ({ spec: { replicas, selector: {}, template: {}, updateStrategy: u } });
const olds = (n: number, unready: number[] = []) => Array.from({ length: n }, (_, i) => pod({ name: `p${i}`, rev: 'old', ready: !unready.includes(i) }));

describe('update count (spec §3.7, §6 V4 TestCalculateUpdateCount)', () => {
  it('defaults, 3 replicas all old ready → 1', () => assert.equal(updateCount(cs(3), olds(3)), 1));
  it('pod 1 unready → 0', () => assert.equal(updateCount(cs(3), olds(3, [1])), 0));
  it('pod 0 unready → 1', () => assert.equal(updateCount(cs(3), olds(3, [0])), 1));
  it('partition 2, maxUnavailable 50%, 8 replicas, 0 and 2 unready, one new unready → 3', () => {
    assert.equal(updateCount(cs(8, { partition: 2, maxUnavailable: '50%' }), [...olds(7, [0, 2]), pod({ name: 'p7', rev: 'new', ready: false })]), 3);
  });
  it('maxUnavailable 2, 5 old all unready → 2', () => assert.equal(updateCount(cs(5, { maxUnavailable: 2 }), olds(5, [0, 1, 2, 3, 4])), 2));
  it('maxUnavailable 0 + maxSurge 2, 4 replicas, 5 ready of which 2 old → 1', () => {
    const pods = [...olds(2), ...Array.from({ length: 3 }, (_, i) => pod({ name: `n${i}`, rev: 'new' }))];
    assert.equal(updateCount(cs(4, { maxUnavailable: 0, maxSurge: 2 }), pods), 1);
  });
  it('candidates skip PreparingDelete and grace-pending pods, keep Updated ones', () => {
    const pods = [pod({ name: 'a', rev: 'old', state: 'PreparingDelete' }), pod({ name: 'b', rev: 'old', annotations: { 'apps.kruise.io/inplace-update-grace': '{}' } }),
      pod({ name: 'c', rev: 'old', state: 'Updated', annotations: { 'apps.kruise.io/inplace-update-grace': '{}' } }), pod({ name: 'd', rev: 'new' })];
    assert.deepEqual(updateCandidates(pods, 'new', 1).map((p) => p.metadata?.name), ['c']);
  });
});
