import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pod, T0 } from './fixtures.js';
import { computeStatus, labelSelectorString, statusChanged } from './status.js';

describe('CloneSet status (spec §3.10, §6 V8)', () => {
  it('V8: 3 replicas → 3 2 1 1 2 3, currentRevision unchanged', () => {
    const pods = [
      pod({ name: 'a', rev: 'cs-2', inPlaceReady: true, state: 'Normal' }),
      pod({ name: 'b', rev: 'cs-2', inPlaceReady: false, state: 'Updating' }),
      pod({ name: 'c', rev: 'cs-1', state: 'PreparingNormal' }),
    ];
    const s = computeStatus({ cs: { metadata: { generation: 4 }, spec: { replicas: 3, selector: { matchLabels: { app: 'hotupgrade' } }, template: {} } },
      pods, updateRevision: 'cs-2', currentRevision: 'cs-1', collisionCount: 0, nowMs: T0 });
    assert.deepEqual([s.replicas, s.readyReplicas, s.availableReplicas, s.updatedReplicas, s.updatedReadyReplicas, s.updatedAvailableReplicas],
      [3, 2, 1, 2, 1, 1]);
    assert.equal(s.currentRevision, 'cs-1');
    assert.equal(s.labelSelector, 'app=hotupgrade');
    assert.equal(s.expectedUpdatedReplicas, 3);
    assert.equal(s.observedGeneration, 4);
    assert.equal(s.collisionCount, 0);
  });

  it('all pods updated and replicas reached: currentRevision becomes the update revision', () => {
    const s = computeStatus({ cs: { spec: { replicas: 1, selector: {}, template: {} } }, pods: [pod({ rev: 'cs-2' })], updateRevision: 'cs-2', currentRevision: 'cs-1', collisionCount: 0, nowMs: T0 });
    assert.equal(s.currentRevision, 'cs-2');
  });

  it('selector string: sorted by key, values sorted', () => {
    assert.equal(labelSelectorString({ matchLabels: { b: '1' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['y', 'x'] }, { key: 'c', operator: 'DoesNotExist' }, { key: 'd', operator: 'Exists' }, { key: 'e', operator: 'NotIn', values: ['z'] }] }),
      'a in (x,y),b=1,!c,d,e notin (z)');
  });

  it('a write is due for changed counters or generation, not for equal ones', () => {
    const s = { replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1, updatedReadyReplicas: 1, observedGeneration: 2 };
    assert.equal(statusChanged(s, { ...s }), false);
    assert.equal(statusChanged(s, { ...s, readyReplicas: 0 }), true);
    assert.equal(statusChanged(s, { ...s, observedGeneration: 3 }), true);
    assert.equal(statusChanged(undefined, { ...s }), true);
  });
});
