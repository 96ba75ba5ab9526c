import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchedWorkloadSpreadAnnotation } from '../../api/workload-spread.js';
import { cloneSetPod, workloadSpread } from './fixtures.js';
import { injectSubset } from './inject.js';
import { chooseOnCreate, onlyUnlimitedSubset, recordDeletion, statefulSetSubset } from './subset-choice.js';

const now = new Date('2026-12-06T01:02:03.456Z');
const input = { version: 'versionIgnored', replicas: 10, now, newUID: () => 'generated-uid' };

describe('subset choice on pod create (spec §12.2 vectors)', () => {
  it('missing 5 → subset-a, status missing 4 with creatingPods{test-pod-1}; the WorkloadSpread read is untouched', () => {
    const ws = workloadSpread([{ name: 'subset-a', replicas: 0, missingReplicas: 5, creatingPods: { other: '2026-12-06T01:00:00Z' } }]);
    const before = structuredClone(ws);
    const d = chooseOnCreate(ws, cloneSetPod(), input);
    assert.deepEqual(ws, before);
    assert.deepEqual(d.status?.versionedSubsetStatuses?.versionIgnored?.[0]?.creatingPods, { other: '2026-12-06T01:00:00Z', 'test-pod-1': '2026-12-06T01:02:03Z' });
  });
  it('missing 5 → subset-a, status missing 4 with creatingPods{test-pod-1}', () => {
    const d = chooseOnCreate(workloadSpread([{ name: 'subset-a', replicas: 0, missingReplicas: 5 }]), cloneSetPod(), input);
    assert.equal(d.subset, 'subset-a');
    assert.deepEqual(d.status?.versionedSubsetStatuses?.versionIgnored, [{ name: 'subset-a', replicas: 0, missingReplicas: 4, creatingPods: { 'test-pod-1': '2026-12-06T01:02:03Z' } }]);
  });
  it('subset-a missing 0 and subset-b −1 → subset-b, no write', () => {
    const ws = workloadSpread([{ name: 'subset-a', replicas: 5, missingReplicas: 0 }, { name: 'subset-b', replicas: 0, missingReplicas: -1 }], 5, [{ name: 'subset-b' }]);
    assert.deepEqual(chooseOnCreate(ws, cloneSetPod(), input), { subset: 'subset-b' });
  });
  it('missing 0 in the only limited subset → admitted unchanged', () => {
    assert.deepEqual(chooseOnCreate(workloadSpread([{ name: 'subset-a', replicas: 5, missingReplicas: 0 }]), cloneSetPod(), input), {});
  });
  it('missing −1 → subset-a without a record', () => {
    assert.deepEqual(chooseOnCreate(workloadSpread([{ name: 'subset-a', replicas: 0, missingReplicas: -1 }]), cloneSetPod(), input), { subset: 'subset-a' });
  });
  it('a pod already in creatingPods → that subset, status unchanged', () => {
    const ws = workloadSpread([{ name: 'subset-a', replicas: 0, missingReplicas: 4, creatingPods: { 'test-pod-1': '2026-12-06T01:00:00Z' } }]);
    assert.deepEqual(chooseOnCreate(ws, cloneSetPod(), input), { subset: 'subset-a' });
  });
  it('a Schedulable=False subset is skipped', () => {
    const ws = workloadSpread([{ name: 'subset-a', replicas: 0, missingReplicas: 3, conditions: [{ type: 'Schedulable', status: 'False' }] }, { name: 'subset-b', replicas: 0, missingReplicas: -1 }], 3, [{ name: 'subset-b' }]);
    assert.equal(chooseOnCreate(ws, cloneSetPod(), input).subset, 'subset-b');
  });
  it('no status for the version yet: initialised from the spec, percentages scaled up against replicas', () => {
    const ws = workloadSpread(undefined, '25%', [{ name: 'subset-b', maxReplicas: '75%' }]);
    const d = chooseOnCreate(ws, cloneSetPod(), { ...input, replicas: 10 });
    assert.deepEqual(d.status?.versionedSubsetStatuses?.versionIgnored?.map((s) => [s.name, s.missingReplicas]), [['subset-a', 2], ['subset-b', 8]]);
  });
  it('a pod with only generateName is recorded under a generated uid, written into the annotation', () => {
    const pod = cloneSetPod('', { generateName: 'cloneset-test-' });
    const ws = workloadSpread([{ name: 'subset-a', replicas: 0, missingReplicas: 5 }]);
    const d = chooseOnCreate(ws, pod, input);
    assert.equal(d.generatedUID, 'generated-uid');
    assert.deepEqual(Object.keys(d.status!.versionedSubsetStatuses!.versionIgnored![0]!.creatingPods!), ['generated-uid']);
    const placed = injectSubset(ws, pod, d.subset!, d.generatedUID);
    assert.equal(placed.metadata?.annotations?.[MatchedWorkloadSpreadAnnotation], '{"name":"test-ws","subset":"subset-a","uid":"generated-uid"}');
  });
  it('one subset without maxReplicas needs no bookkeeping', () => {
    assert.equal(onlyUnlimitedSubset(workloadSpread(undefined, null)), 'subset-a');
    assert.equal(onlyUnlimitedSubset(workloadSpread(undefined, 3)), undefined);
  });
});

describe('StatefulSet targets: by ordinal', () => {
  const ws = { ...workloadSpread(undefined, 2, [{ name: 'subset-b', maxReplicas: 3 }, { name: 'subset-c' }]) };
  for (const [pod, subset] of [['sts-0', 'subset-a'], ['sts-1', 'subset-a'], ['sts-2', 'subset-b'], ['sts-4', 'subset-b'], ['sts-5', 'subset-c'], ['no-ordinal', 'subset-a']] as const) {
    it(`${pod} → ${subset}`, () => assert.equal(statefulSetSubset(ws, pod), subset));
  }
  it('an unschedulable subset is skipped and its capacity not counted', () => {
    const blocked = { ...ws, status: { subsetStatuses: [{ name: 'subset-a', replicas: 0, missingReplicas: 0, conditions: [{ type: 'Schedulable', status: 'False' }] }] } };
    assert.equal(statefulSetSubset(blocked, 'sts-0'), 'subset-b');
    assert.equal(statefulSetSubset(blocked, 'sts-3'), 'subset-c');
  });
});

describe('deletion bookkeeping (spec §13 vectors)', () => {
  it('missing 0 → missing 1, deletingPods{test-pod-1}', () => {
    const status = recordDeletion(workloadSpread([{ name: 'subset-a', replicas: 5, missingReplicas: 0 }]), cloneSetPod(), 'subset-a', input);
    assert.deepEqual(status?.versionedSubsetStatuses?.versionIgnored, [{ name: 'subset-a', replicas: 5, missingReplicas: 1, deletingPods: { 'test-pod-1': '2026-12-06T01:02:03Z' } }]);
  });
  it('an unknown subset, a recorded pod, or an unlimited subset → no write', () => {
    assert.equal(recordDeletion(workloadSpread([{ name: 'subset-a', replicas: 5, missingReplicas: 0 }]), cloneSetPod(), 'subset-b', input), undefined);
    assert.equal(recordDeletion(workloadSpread([{ name: 'subset-a', replicas: 5, missingReplicas: 0, deletingPods: { 'test-pod-1': 'x' } }]), cloneSetPod(), 'subset-a', input), undefined);
    assert.equal(recordDeletion(workloadSpread([{ name: 'subset-a', replicas: 5, missingReplicas: -1 }]), cloneSetPod(), 'subset-a', input), undefined);
  });
});
