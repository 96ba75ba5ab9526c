import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { WorkloadSpread, WorkloadSpreadSubsetStatus } from '../../shared/api/workload-spread.js';
import { subsetStatuses, type PlacedPod } from './subset-status.js';

const now = new Date('2025-06-01T12:00:00Z');
const adaptive = (on: boolean): WorkloadSpread => ({
  metadata: { name: 'ws', namespace: 'default' },
  spec: {
    targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
    subsets: [{ name: 'subset-a', maxReplicas: 3 }, { name: 'subset-b' }],
    ...(on ? { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 5 } } } : {}),
  },
});
const pending = (name: string, created = '2025-06-01T11:59:00Z'): PlacedPod => ({
  pod: { metadata: { name, creationTimestamp: created }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } } as unknown as Pod,
  subset: 'subset-a', key: name,
});
const cond = (status: string, at: string) => [{ type: 'Schedulable', status, lastTransitionTime: at, reason: '', message: '' }];
const history = (a: ReturnType<typeof cond>): WorkloadSpreadSubsetStatus[] => [{ name: 'subset-a', replicas: 0, missingReplicas: 3, conditions: a }, { name: 'subset-b', replicas: 0, missingReplicas: -1 }];
const schedulable = (r: ReturnType<typeof subsetStatuses>) => r.statuses.map((s) => s.conditions?.find((c) => c.type === 'Schedulable')?.status);

describe('Adaptive rescheduling (TestRescheduleSubset vectors, rescheduleCriticalSeconds 5)', () => {
  it('strategy off: the conditions are removed', () => {
    const r = subsetStatuses(adaptive(false), [], history(cond('False', '2025-06-01T11:59:00Z')), 4, now);
    assert.deepEqual(schedulable(r), [undefined, undefined]);
  });
  it('no pods: both subsets Schedulable', () => {
    assert.deepEqual(schedulable(subsetStatuses(adaptive(true), [], undefined, 4, now)), ['True', 'True']);
  });
  it('two pods pending past 5 s in subset-a: a False, b True, both pods to delete', () => {
    const r = subsetStatuses(adaptive(true), [pending('p1'), pending('p2')], undefined, 4, now);
    assert.deepEqual(schedulable(r), ['False', 'True']);
    assert.deepEqual(r.timedOut.map((p) => p.pod.metadata?.name), ['p1', 'p2']);
  });
  it('a pod pending for less than 5 s is not yet timed out: requeue at its deadline', () => {
    const r = subsetStatuses(adaptive(true), [pending('p1', '2025-06-01T11:59:58Z')], undefined, 4, now);
    assert.deepEqual(schedulable(r), ['True', 'True']);
    assert.equal(r.requeueMs, 3_000);
  });
  it('False for 4 minutes stays False (requeue at 5); for 10 minutes recovers with RecoverSchedulable', () => {
    const held = subsetStatuses(adaptive(true), [], history(cond('False', '2025-06-01T11:56:00Z')), 4, now);
    assert.deepEqual(schedulable(held), ['False', 'True']);
    assert.equal(held.requeueMs, 60_000);
    const back = subsetStatuses(adaptive(true), [], history(cond('False', '2025-06-01T11:50:00Z')), 4, now);
    assert.deepEqual(schedulable(back), ['True', 'True']);
    assert.deepEqual(back.events.map((e) => [e.type, e.reason, e.message]), [['Normal', 'RecoverSchedulable', 'Subset subset-a of WorkloadSpread default/ws is recovered from unschedulable to schedulable']]);
  });
});
