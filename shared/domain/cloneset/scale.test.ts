import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/meta.js';
import { pod, T0 } from './fixtures.js';
import { planScale, type ScalePlan } from './scale.js';
import { sameNodeRanks, sortForScaleIn } from './scale-in-order.js';
import { resolveStrategy } from './strategy-values.js';

const names = (plan: ScalePlan) => (plan.kind === 'delete' ? plan.pods.map((p) => p.metadata?.name) : []);

describe('planScale (spec §3.5, §6 V6 TestScale)', () => {
  const five = (specified?: number) => Array.from({ length: 5 }, (_, i) => pod({ name: `p${i}`, rev: 'r', readyForS: 10, specifiedDelete: i === specified }));
  const strategy = (minReadySeconds: number) => resolveStrategy({ spec: { replicas: 3, minReadySeconds, selector: {}, template: {}, updateStrategy: { maxUnavailable: '20%' } } });

  it('minReadySeconds 9999: ready pods are not available, deleteReadyLimit 0, nothing deleted', () => {
    const plan = planScale({ pods: five(), currentRevision: 'r', updateRevision: 'r', strategy: strategy(9999), podsToDelete: new Set(), nowMs: T0 });
    assert.equal(plan.kind, 'none');
    assert.equal(plan.diffs.deleteReadyLimit, 0);
    assert.equal(plan.diffs.scaleDownNum, 2);
  });

  it('minReadySeconds 0: two pods deleted, three left', () => {
    const plan = planScale({ pods: five(), currentRevision: 'r', updateRevision: 'r', strategy: strategy(0), podsToDelete: new Set(), nowMs: T0 });
    assert.equal(names(plan).length, 2);
  });

  it('pod 0 specified-delete: only pod 0 this round', () => {
    assert.deepEqual(names(planScale({ pods: five(0), currentRevision: 'r', updateRevision: 'r', strategy: strategy(0), podsToDelete: new Set(), nowMs: T0 })), ['p0']);
  });

  it('a name in podsToDelete is deleted like a labelled pod', () => {
    assert.deepEqual(names(planScale({ pods: five(), currentRevision: 'r', updateRevision: 'r', strategy: strategy(0), podsToDelete: new Set(['p3']), nowMs: T0 })), ['p3']);
  });

  it('scale up creates at the current revision up to the partition, the rest at the update revision', () => {
    const s = resolveStrategy({ spec: { replicas: 5, selector: {}, template: {}, updateStrategy: { partition: 3 } } });
    const plan = planScale({ pods: [pod({ rev: 'old' })], currentRevision: 'old', updateRevision: 'new', strategy: s, podsToDelete: new Set(), nowMs: T0 });
    assert.deepEqual(plan.kind === 'create' && [plan.fromCurrent, plan.fromUpdate, plan.limited], [2, 2, false]);
  });

  it('scaleStrategy.maxUnavailable limits creations and says so', () => {
    const s = resolveStrategy({ spec: { replicas: 6, selector: {}, template: {}, scaleStrategy: { maxUnavailable: 2 } } });
    const plan = planScale({ pods: [pod({ rev: 'r' }), pod({ rev: 'r' }), pod({ rev: 'r', ready: false })], currentRevision: 'r', updateRevision: 'r', strategy: s, podsToDelete: new Set(), nowMs: T0 });
    assert.deepEqual(plan.kind === 'create' && [plan.fromCurrent + plan.fromUpdate, plan.limited], [1, true]);
  });

  it('scale in takes old-revision pods first, unready before ready', () => {
    const s = resolveStrategy({ spec: { replicas: 2, selector: {}, template: {}, updateStrategy: { maxUnavailable: 3 } } });
    const pods = [pod({ name: 'new1', rev: 'new' }), pod({ name: 'old-ready', rev: 'old' }), pod({ name: 'old-unready', rev: 'old', ready: false }), pod({ name: 'new2', rev: 'new' })];
    assert.deepEqual(names(planScale({ pods, currentRevision: 'old', updateRevision: 'new', strategy: s, podsToDelete: new Set(), nowMs: T0 })).sort(), ['old-ready', 'old-unready']);
  });
});

describe('scale-in order (spec §3.6, §6 V5)', () => {
  it('TestSortingActivePods order', () => {
    const month = 30 * 24 * 3600;
    const ps: Pod[] = [
      pod({ name: 'unscheduled', nodeName: '', phase: 'Pending', ready: false }),
      pod({ name: 'scheduled-pending', phase: 'Pending', ready: false }),
      pod({ name: 'unknown', phase: 'Unknown', ready: false }),
      pod({ name: 'running-not-ready', ready: false }),
      pod({ name: 'ready-no-time', readyForS: 0 }),
      pod({ name: 'ready-now', readyForS: 1 }),
      pod({ name: 'ready-month', readyForS: month }),
    ];
    // Every pod on its own node, so the same-node rank plays no part.
    ps.forEach((p, i) => { if (p.spec!.nodeName) p.spec!.nodeName = `n${i}`; });
    (ps[4]!.status!.conditions![0] as { lastTransitionTime?: unknown }).lastTransitionTime = undefined;
    const shuffled = [ps[6]!, ps[3]!, ps[0]!, ps[5]!, ps[2]!, ps[4]!, ps[1]!];
    // Available pods sort after unavailable ones; with m = 0 every Running+Ready pod is available, as upstream.
    assert.deepEqual(sortForScaleIn(shuffled, 0, T0).map((p) => p.metadata?.name), ps.map((p) => p.metadata?.name));
  });

  it('restarts, creation time and deletion cost break ties', () => {
    const a = pod({ name: 'many-restarts', readyForS: 1, restarts: 9001, nodeName: 'x' });
    const b = pod({ name: 'ready-now', readyForS: 1, nodeName: 'y' });
    assert.deepEqual(sortForScaleIn([b, a], 0, T0).map((p) => p.metadata?.name), ['many-restarts', 'ready-now']);
    const now = pod({ name: 'created-now', readyForS: 1, createdS: 1, nodeName: 'x' });
    const then = pod({ name: 'created-then', readyForS: 1, createdS: 5000, nodeName: 'y' });
    assert.deepEqual(sortForScaleIn([then, now], 0, T0).map((p) => p.metadata?.name), ['created-now', 'created-then']);
    const cheap = pod({ name: 'cost10', nodeName: 'x', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } });
    const dear = pod({ name: 'cost100', nodeName: 'y', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } });
    assert.deepEqual(sortForScaleIn([dear, cheap], 0, T0).map((p) => p.metadata?.name), ['cost10', 'cost100']);
  });

  it('TestSameNodeRanker: a {0,4,10}, b {3,6}, c {5}, d {7,8,9}', () => {
    const node: Record<number, string> = { 0: 'a', 4: 'a', 10: 'a', 3: 'b', 6: 'b', 5: 'c', 7: 'd', 8: 'd', 9: 'd' };
    const pods = Object.keys(node).map(Number).sort((x, y) => x - y).map((i) => {
      const p = pod({ name: String(i), nodeName: node[i] });
      p.metadata!.creationTimestamp = new Date(T0) as never;
      return p;
    });
    const ranks = sameNodeRanks(pods, T0);
    const got = Object.fromEntries(pods.map((p) => [p.metadata!.name!, ranks.get(p) ?? 0]));
    assert.deepEqual(got, { 0: 2, 4: 1, 10: 0, 3: 1, 6: 0, 5: 0, 7: 2, 8: 1, 9: 0 });
  });
});
