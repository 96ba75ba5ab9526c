// The v1.9.0 Progressing condition (cloneset_status.go calculateProgressingStatus; cases after its
// cloneset_status_test.go): which reason, when times move, when a status write is due, when to look again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet, CloneSetStatus } from '../../api/cloneset.js';
import { applyProgressing, progressingChanged } from './progressing.js';
import { statusChanged } from './status.js';

const T0 = Date.parse('2026-01-02T03:00:00Z');
const cs = (spec: Partial<NonNullable<CloneSet['spec']>> = {}, status?: CloneSetStatus): CloneSet =>
  ({ metadata: { name: 'w', namespace: 'd' }, spec: { replicas: 3, selector: {}, template: {}, progressDeadlineSeconds: 600, updateStrategy: { partition: 0 }, ...spec }, status }) as CloneSet;
const st = (over: Partial<CloneSetStatus> = {}): CloneSetStatus => ({
  replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 1, updatedReadyReplicas: 1, updatedAvailableReplicas: 1,
  expectedUpdatedReplicas: 3, updateRevision: 'w-2', currentRevision: 'w-1', ...over });
const progressing = (s: CloneSetStatus) => s.conditions?.find((c) => c.type === 'Progressing');

describe('CloneSet Progressing condition (v1.9.0)', () => {
  it('without progressDeadlineSeconds (or with MaxInt32) the condition is removed, others kept', () => {
    for (const d of [undefined, 2147483647]) {
      const s = st({ conditions: [{ type: 'Progressing', status: 'True', reason: 'CloneSetUpdated' }, { type: 'FailedScale', status: 'True' }] });
      assert.equal(applyProgressing(cs({ progressDeadlineSeconds: d }), s, T0), undefined);
      assert.deepEqual(s.conditions, [{ type: 'FailedScale', status: 'True' }]);
    }
  });

  it('progressing: CloneSetUpdated with both times now; requeue at the deadline plus a second', () => {
    const s = st();
    assert.equal(applyProgressing(cs(), s, T0), 601_000);
    assert.deepEqual(progressing(s), { type: 'Progressing', status: 'True', lastUpdateTime: '2026-01-02T03:00:00Z', lastTransitionTime: '2026-01-02T03:00:00Z',
      reason: 'CloneSetUpdated', message: 'CloneSet is progressing' });
  });

  it('still progressing later: the condition is left as it is, the requeue counts from its lastUpdateTime', () => {
    const first = st();
    applyProgressing(cs(), first, T0);
    const s = st({ conditions: first.conditions });
    assert.equal(applyProgressing(cs(), s, T0 + 100_000), 501_000);
    assert.equal(progressing(s)?.lastUpdateTime, '2026-01-02T03:00:00Z');
  });

  it('past the deadline: False/ProgressDeadlineExceeded naming the update revision, and it stays so', () => {
    const first = st();
    applyProgressing(cs(), first, T0);
    const s = st({ conditions: first.conditions });
    assert.equal(applyProgressing(cs(), s, T0 + 601_000), undefined);
    assert.deepEqual(progressing(s), { type: 'Progressing', status: 'False', lastUpdateTime: '2026-01-02T03:10:01Z', lastTransitionTime: '2026-01-02T03:10:01Z',
      reason: 'ProgressDeadlineExceeded', message: 'CloneSet revision w-2 has timed out progressing' });
    assert.ok(progressingChanged({ ...first }, s) && statusChanged({ ...st(), conditions: first.conditions }, s), 'a status write is due');
  });

  it('available: True/CloneSetAvailable, keeping lastTransitionTime when the status stays True', () => {
    const first = st();
    applyProgressing(cs(), first, T0);
    const s = st({ updatedReplicas: 3, updatedReadyReplicas: 3, updatedAvailableReplicas: 3, currentRevision: 'w-2', conditions: first.conditions });
    assert.equal(applyProgressing(cs(), s, T0 + 5000), undefined);
    const c = progressing(s)!;
    assert.equal(c.reason, 'CloneSetAvailable');
    assert.equal(c.message, 'CloneSet is available');
    assert.equal(c.lastTransitionTime, '2026-01-02T03:00:00Z');
    assert.equal(c.lastUpdateTime, '2026-01-02T03:00:05Z');
  });

  it('paused: True/CloneSetPaused; partition reached: True/ProgressPartitionAvailable', () => {
    const paused = st();
    applyProgressing(cs({ updateStrategy: { paused: true } }), paused, T0);
    assert.equal(progressing(paused)?.reason, 'CloneSetPaused');
    assert.equal(progressing(paused)?.message, 'CloneSet is paused');
    const partition = st({ expectedUpdatedReplicas: 1 });
    applyProgressing(cs(), partition, T0);
    assert.equal(progressing(partition)?.reason, 'ProgressPartitionAvailable');
    assert.equal(progressing(partition)?.message, 'CloneSet has been paused due to partition ready');
  });

  it('a write is due when Progressing appears, goes or changes reason, not when only its times would', () => {
    const a = st({ conditions: [{ type: 'Progressing', status: 'True', reason: 'CloneSetUpdated', lastUpdateTime: 'x' }] });
    assert.equal(progressingChanged(a, st({ conditions: [{ type: 'Progressing', status: 'True', reason: 'CloneSetUpdated', lastUpdateTime: 'y' }] })), false);
    assert.equal(progressingChanged(a, st()), true);
    assert.equal(progressingChanged(st(), a), true);
    assert.equal(progressingChanged(a, st({ conditions: [{ type: 'Progressing', status: 'True', reason: 'CloneSetPaused' }] })), true);
  });
});
