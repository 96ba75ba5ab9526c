// The eviction API's rules (kubernetes pkg/registry/core/pod/storage/eviction.go) applied to an in-place restart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/meta.js';
import { budgetsFor, decide, DISRUPTION_TIMEOUT_MS, finishedDisruptions, MAX_DISRUPTED_PODS, type PodDisruptionBudget, type PdbStatus } from './pdb-budget.js';

const NOW = Date.parse('2026-03-01T10:00:00Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString().replace('.000Z', 'Z');

function pod(name: string, o: { ready?: boolean; readySince?: string; phase?: string; deleting?: boolean; labels?: Record<string, string>; ns?: string } = {}): Pod {
  return {
    metadata: { name, namespace: o.ns ?? 'default', labels: o.labels ?? { app: 'web' }, ...(o.deleting ? { deletionTimestamp: new Date(NOW) } : {}) },
    status: { phase: o.phase ?? 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: (o.readySince ?? at(3_600_000)) as unknown as Date }] },
  };
}

function pdb(status: Partial<PdbStatus> = {}, o: { name?: string; generation?: number; selector?: PodDisruptionBudget['spec'] extends infer S ? S extends { selector?: infer L } ? L : never : never; policy?: string; ns?: string } = {}): PodDisruptionBudget {
  return {
    metadata: { name: o.name ?? 'web', namespace: o.ns ?? 'default', generation: o.generation ?? 1, resourceVersion: '7' },
    spec: { selector: o.selector === undefined ? { matchLabels: { app: 'web' } } : o.selector, ...(o.policy ? { unhealthyPodEvictionPolicy: o.policy } : {}) },
    status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, ...status },
  };
}

const none = () => undefined;

describe('budgetsFor: the PDBs the eviction API would consult', () => {
  it('same namespace and a matching, non-empty selector only', () => {
    const picked = budgetsFor(pod('a'), [
      pdb({}, { name: 'match' }), pdb({}, { name: 'other-ns', ns: 'x' }), pdb({}, { name: 'empty', selector: {} }),
      pdb({}, { name: 'nil', selector: null }), pdb({}, { name: 'other-labels', selector: { matchLabels: { app: 'db' } } }),
      pdb({}, { name: 'invalid', selector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } }),
      pdb({}, { name: 'expr', selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] } }),
    ]);
    assert.deepEqual(picked.map((b) => b.metadata?.name), ['match', 'expr']);
  });
});

describe('decide', () => {
  it('no PDB: free, nothing written', () => assert.equal(decide(pod('a'), [], NOW, none).kind, 'free'));

  it('two PDBs: wait, as the eviction API refuses such a pod', () => {
    const d = decide(pod('a'), [pdb({}, { name: 'p1' }), pdb({}, { name: 'p2' })], NOW, none);
    assert.equal(d.kind, 'wait');
    assert.match((d as { reason: string }).reason, /more than one PodDisruptionBudget selects the pod \(p1, p2\)/);
  });

  it('one disruption allowed: taken, the pod recorded at now (whole seconds), the last one sets DisruptionAllowed False', () => {
    const d = decide(pod('a'), [pdb({ disruptedPods: { old: at(10_000) } })], NOW + 678, none);
    assert.equal(d.kind, 'take');
    const s = (d as { status: PdbStatus }).status;
    assert.equal(s.disruptionsAllowed, 0);
    assert.deepEqual(s.disruptedPods, { old: at(10_000), a: '2026-03-01T10:00:00Z' });
    assert.deepEqual(s.conditions, [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', lastTransitionTime: '2026-03-01T10:00:00Z', observedGeneration: 1 }]);
  });

  it('two allowed: one taken, no condition written', () => {
    const d = decide(pod('a'), [pdb({ disruptionsAllowed: 2 })], NOW, none);
    assert.equal((d as { status: PdbStatus }).status.disruptionsAllowed, 1);
    assert.equal((d as { status: PdbStatus }).status.conditions, undefined);
  });

  it('none allowed: wait with the eviction API\'s message', () => {
    assert.deepEqual(decide(pod('a'), [pdb({ disruptionsAllowed: 0, currentHealthy: 2 })], NOW, none), {
      kind: 'wait', reason: "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently",
    });
  });

  it('a spec the disruption controller has not seen yet, a negative budget, a map too big: wait', () => {
    assert.match((decide(pod('a'), [pdb({}, { generation: 2 })], NOW, none) as { reason: string }).reason, /still being processed/);
    assert.match((decide(pod('a'), [pdb({ disruptionsAllowed: -1 })], NOW, none) as { reason: string }).reason, /negative/);
    const big = Object.fromEntries(Array.from({ length: MAX_DISRUPTED_PODS + 1 }, (_, i) => [`p${i}`, at(1000)]));
    assert.match((decide(pod('a'), [pdb({ disruptedPods: big, disruptionsAllowed: 5 })], NOW, none) as { reason: string }).reason, /map too big/);
  });

  it('already recorded and not expired: free without spending again; expired: spends again', () => {
    assert.equal(decide(pod('a'), [pdb({ disruptionsAllowed: 0, disruptedPods: { a: at(60_000) } })], NOW, none).kind, 'free');
    assert.equal(decide(pod('a'), [pdb({ disruptionsAllowed: 0, disruptedPods: { a: at(DISRUPTION_TIMEOUT_MS) } })], NOW, none).kind, 'wait');
  });

  it('pods the eviction API ignores the budget for: pending, finished, deleting', () => {
    for (const p of [pod('a', { phase: 'Pending' }), pod('a', { phase: 'Succeeded' }), pod('a', { phase: 'Failed' }), pod('a', { deleting: true })]) {
      assert.equal(decide(p, [pdb({ disruptionsAllowed: 0 })], NOW, none).kind, 'free');
    }
  });

  it('a pod not ready: free when the budget is healthy or the policy is AlwaysAllow; else it spends like any', () => {
    assert.equal(decide(pod('a', { ready: false }), [pdb({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 })], NOW, none).kind, 'free');
    assert.equal(decide(pod('a', { ready: false }), [pdb({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2 }, { policy: 'AlwaysAllow' })], NOW, none).kind, 'free');
    assert.equal(decide(pod('a', { ready: false }), [pdb({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2 })], NOW, none).kind, 'wait');
    assert.equal(decide(pod('a', { ready: false }), [pdb({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0 })], NOW, none).kind, 'wait');
  });
});

describe('finished disruptions', () => {
  const pods = new Map<string, Pod>([
    ['back', pod('back', { readySince: at(5_000) })],
    ['restarting', pod('restarting', { ready: false, readySince: at(5_000) })],
    ['evicted', pod('evicted', { deleting: true, readySince: at(5_000) })],
    ['delete-failed', pod('delete-failed', { readySince: at(3_600_000) })],
    ['same-second', pod('same-second', { readySince: at(10_000) })],
  ]);
  const recorded = { back: at(10_000), restarting: at(10_000), evicted: at(10_000), 'delete-failed': at(10_000), 'same-second': at(10_000), gone: at(10_000) };

  it('only pods Ready again since strictly after their record', () => {
    assert.deepEqual(finishedDisruptions(pdb({ disruptedPods: recorded }), (n) => pods.get(n)), ['back']);
  });

  it('dropped from the status a wait writes, and from the one a take writes', () => {
    const wait = decide(pod('a'), [pdb({ disruptionsAllowed: 0, disruptedPods: recorded })], NOW, (n) => pods.get(n));
    assert.equal(wait.kind, 'wait');
    assert.deepEqual(Object.keys((wait as { status: PdbStatus }).status.disruptedPods ?? {}).sort(), ['delete-failed', 'evicted', 'gone', 'restarting', 'same-second']);
    const take = decide(pod('a'), [pdb({ disruptionsAllowed: 1, disruptedPods: recorded })], NOW, (n) => pods.get(n));
    assert.deepEqual(Object.keys((take as { status: PdbStatus }).status.disruptedPods ?? {}).sort(), ['a', 'delete-failed', 'evicted', 'gone', 'restarting', 'same-second']);
  });

  it('a wait with nothing finished writes nothing', () => {
    assert.equal((decide(pod('a'), [pdb({ disruptionsAllowed: 0 })], NOW, (n) => pods.get(n)) as { status?: unknown }).status, undefined);
  });
});
