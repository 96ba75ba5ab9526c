import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/meta.js';
import { calculateDiffs, type Diffs } from './diff.js';
import { pod, T0 } from './fixtures.js';
import { MAX_INT32, type ResolvedStrategy } from './strategy-values.js';

const strategy = (replicas: number, partition: number, maxUnavailable: number, maxSurge: number, scaleMaxUnavailable = MAX_INT32): ResolvedStrategy =>
  ({ replicas, partition, maxUnavailable, maxSurge, scaleMaxUnavailable, minReadySeconds: 0 });

const old = (o: Parameters<typeof pod>[0] = {}) => pod({ rev: 'old', ...o });
const neu = (o: Parameters<typeof pod>[0] = {}) => pod({ rev: 'new', ...o });
const times = (n: number, f: () => Pod) => Array.from({ length: n }, f);

function expect(partial: Partial<Diffs>): Diffs {
  return { scaleUpNum: 0, scaleUpNumOldRevision: 0, scaleDownNum: 0, scaleDownNumOldRevision: 0, scaleUpLimit: 0, deleteReadyLimit: 0,
    useSurge: 0, useSurgeOldRevision: 0, updateNum: 0, updateMaxUnavailable: 0, ...partial };
}

// spec §6 V3: upstream TestCalculateDiffsWithExpectation.
const cases: { name: string; s: ResolvedStrategy; pods: Pod[]; want: Partial<Diffs> }[] = [
  { name: 'increase replicas to 5 (step 1/2)', s: strategy(5, 0, 1, 0), pods: [], want: { scaleUpNum: 5, scaleUpLimit: 5 } },
  { name: 'update partition=3 (step 1/3)', s: strategy(5, 3, 1, 0), pods: times(5, () => old()), want: { updateNum: 2, updateMaxUnavailable: 1 } },
  { name: 'update in-place partition=3 with maxSurge (step 1/4)', s: strategy(5, 3, 1, 1), pods: times(5, () => old()),
    want: { scaleUpNum: 1, useSurge: 1, scaleUpLimit: 1, updateNum: 2, updateMaxUnavailable: 1 } },
  { name: 'update in-place partition=3 with maxSurge (step 3/4)', s: strategy(5, 3, 1, 1),
    pods: [...times(4, () => old()), neu({ ready: false, state: 'Updating' }), neu({ ready: false })], want: { scaleDownNum: 1, scaleDownNumOldRevision: 1 } },
  { name: 'update recreate partition=3 with maxSurge (step 3/7)', s: strategy(5, 3, 1, 1),
    pods: [...times(4, () => old()), old({ specifiedDelete: true }), neu({ ready: false })],
    want: { useSurge: 1, useSurgeOldRevision: 1, deleteReadyLimit: 1, updateNum: 1, updateMaxUnavailable: 2 } },
  { name: 'specified delete with maxSurge (step 1/4)', s: strategy(5, 0, 0, 1), pods: [...times(4, () => neu()), neu({ specifiedDelete: true })],
    want: { scaleUpNum: 1, useSurge: 1, scaleUpLimit: 1 } },
  { name: 'increase replicas 3 to 6 with scale maxUnavailable = 2, not ready pod = 1', s: strategy(6, 0, 1, 0, 2),
    pods: [neu(), neu(), neu({ ready: false })], want: { scaleUpNum: 3, scaleUpLimit: 1 } },
];

describe('calculateDiffs (spec §3.4, §6 V3)', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(calculateDiffs({ pods: c.pods, updateRevision: 'new', strategy: c.s, nowMs: T0 }), expect(c.want));
    });
  }

  it('podsToDelete names count as specified-delete', () => {
    const pods = [...times(4, () => neu()), neu({ name: 'victim' })];
    assert.deepEqual(calculateDiffs({ pods, updateRevision: 'new', strategy: strategy(5, 0, 0, 1), nowMs: T0, podsToDelete: new Set(['victim']) }),
      expect({ scaleUpNum: 1, useSurge: 1, scaleUpLimit: 1 }));
  });
});
