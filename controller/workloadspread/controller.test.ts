import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { workloadSpreadController } from './controller.js';
import { deletionCosts } from './deletion-cost.js';
import { subsetStatuses } from './subset-status.js';

const NS = 'default';
const COST = 'controller.kubernetes.io/pod-deletion-cost';

function setup(ws: WorkloadSpread, pods: Array<{ name: string; subset?: string; ws?: string; phase?: string }>, replicas = 10) {
  const cluster = new FakeCluster();
  const cs = cluster.seed(resources.cloneSets, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'cloneset-test', namespace: NS } as { name: string; namespace: string; uid?: string }, spec: { replicas } });
  for (const p of pods) {
    cluster.seed(resources.pods, {
      metadata: {
        name: p.name, namespace: NS, creationTimestamp: '2025-06-01T11:00:00Z',
        ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cloneset-test', uid: cs.metadata!.uid!, controller: true }],
        ...(p.subset ? { annotations: { 'apps.kruise.io/matched-workloadspread': JSON.stringify({ name: p.ws ?? 'test-ws', subset: p.subset }) } } : {}),
      },
      spec: { containers: [{ name: 'main', image: 'nginx' }], nodeName: 'n1' },
      status: { phase: p.phase ?? 'Running' },
    } as unknown as Pod & { metadata: { name: string } });
  }
  cluster.seed(resources.workloadSpreads, ws as never);
  const queue = new RecordingQueue();
  const f = fakeDeps(cluster);
  const reconcile = workloadSpreadController.setup(f.deps, queue);
  return { cluster, queue, f, run: () => reconcile(`${NS}/test-ws`, f.ctx) };
}

const ws = (subsets: WorkloadSpread['spec'] extends infer S ? S extends { subsets: infer L } ? L : never : never, status?: WorkloadSpread['status']): WorkloadSpread => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread',
  metadata: { name: 'test-ws', namespace: NS, generation: 1 },
  spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cloneset-test' }, subsets },
  ...(status ? { status } : {}),
});
const stored = (c: FakeCluster) => c.get<WorkloadSpread & { metadata: { name: string } }>(resources.workloadSpreads, 'test-ws', NS)!;
const cost = (c: FakeCluster, name: string) => c.get<Pod & { metadata: { name: string } }>(resources.pods, name, NS)?.metadata?.annotations?.[COST];

describe('workloadspread-controller over the fake cluster (TestWorkloadSpreadReconcile vectors)', () => {
  it('no pods: subset-a missing 5, replicas 0', async () => {
    const t = setup(ws([{ name: 'subset-a', maxReplicas: 5 }]), []);
    await t.run();
    assert.deepEqual(stored(t.cluster).status, { observedGeneration: 1, subsetStatuses: [{ name: 'subset-a', replicas: 0, missingReplicas: 5 }] });
  });
  it('one annotated pod: missing 4, replicas 1, deletion cost 100', async () => {
    const t = setup(ws([{ name: 'subset-a', maxReplicas: 5 }]), [{ name: 'test-pod-0', subset: 'subset-a' }]);
    await t.run();
    assert.deepEqual(stored(t.cluster).status?.subsetStatuses, [{ name: 'subset-a', replicas: 1, missingReplicas: 4 }]);
    assert.deepEqual(stored(t.cluster).status?.versionedSubsetStatuses, { versionIgnored: [{ name: 'subset-a', replicas: 1, missingReplicas: 4 }] });
    assert.equal(cost(t.cluster, 'test-pod-0'), '100');
  });
  it('percentages scale against the CloneSet: 80% of 5 → 4, less one pod → 3', async () => {
    const t = setup(ws([{ name: 'subset-a', maxReplicas: '80%' }, { name: 'subset-b' }]), [{ name: 'test-pod-0', subset: 'subset-a' }], 5);
    await t.run();
    assert.deepEqual(stored(t.cluster).status?.subsetStatuses?.map((s) => [s.name, s.replicas, s.missingReplicas]), [['subset-a', 1, 3], ['subset-b', 0, -1]]);
  });
  it('a fresh creating record is kept (missing −1 more, requeue), a stale one dropped with CreatePodFailed', async () => {
    const recent = '2025-06-01T11:59:58Z';
    const stale = '2025-06-01T11:59:00Z';
    const history = [{ name: 'subset-a', replicas: 0, missingReplicas: 3, creatingPods: { 'test-pod-0': recent, 'test-pod-1': recent, 'test-pod-9': stale } }];
    const t = setup(ws([{ name: 'subset-a', maxReplicas: 5 }], { versionedSubsetStatuses: { versionIgnored: history } }), [{ name: 'test-pod-0', subset: 'subset-a' }]);
    const result = await t.run();
    assert.deepEqual(stored(t.cluster).status?.versionedSubsetStatuses?.versionIgnored, [{ name: 'subset-a', replicas: 1, missingReplicas: 3, creatingPods: { 'test-pod-1': recent } }]);
    assert.deepEqual(t.f.events.map((e) => `${e.reason}: ${e.message}`), ['CreatePodFailed: Pod default/test-pod-9 was expected to be created but it wasn\'t']);
    assert.equal((result as { requeueAfterMs?: number }).requeueAfterMs, 28_000);
  });
  it('subset order sets deletion cost; pods of another WorkloadSpread or a removed subset rank lowest', async () => {
    const t = setup(ws([{ name: 'subset-a', maxReplicas: 3 }, { name: 'subset-b' }]), [
      { name: 'a-0', subset: 'subset-a' }, { name: 'a-1', subset: 'subset-a' }, { name: 'b-0', subset: 'subset-b' },
      { name: 'gone', subset: 'subset-c' }, { name: 'other', subset: 'subset-a', ws: 'other-ws' }, { name: 'done', subset: 'subset-b', phase: 'Succeeded' },
    ]);
    await t.run();
    assert.deepEqual(['a-0', 'a-1', 'b-0', 'gone', 'other', 'done'].map((n) => cost(t.cluster, n)), ['200', '200', '100', '-300', '-300', undefined]);
    assert.deepEqual(stored(t.cluster).status?.subsetStatuses?.map((s) => [s.name, s.replicas, s.missingReplicas]), [['subset-a', 2, 1], ['subset-b', 1, -1]]);
  });
  it('targetFilter.selector limits the pods counted', async () => {
    const filtered = ws([{ name: 'subset-a', maxReplicas: 5 }]);
    filtered.spec!.targetFilter = { selector: { matchLabels: { picked: 'yes' } } };
    const t = setup(filtered, [{ name: 'p', subset: 'subset-a' }]);
    await t.run();
    assert.deepEqual(stored(t.cluster).status?.subsetStatuses, [{ name: 'subset-a', replicas: 0, missingReplicas: 5 }]);
    assert.equal(cost(t.cluster, 'p'), undefined);
  });
  it('a second reconcile with nothing new writes nothing', async () => {
    const t = setup(ws([{ name: 'subset-a', maxReplicas: 5 }]), [{ name: 'p', subset: 'subset-a' }]);
    await t.run();
    const writes = t.cluster.calls.length;
    await t.run();
    assert.equal(t.cluster.calls.length, writes);
  });
  it('a pod placed by the webhook wakes its WorkloadSpread', async () => {
    const t = setup(ws([{ name: 'subset-a', maxReplicas: 5 }]), []);
    t.queue.pending.clear();
    await t.cluster.rest.create(resources.pods, { metadata: { name: 'other', namespace: NS } });
    assert.equal(t.queue.pending.size, 0, 'a pod without the annotation wakes nothing');
    await t.cluster.rest.create(resources.pods, { metadata: { name: 'p', namespace: NS, annotations: { 'apps.kruise.io/matched-workloadspread': '{"name":"test-ws","subset":"subset-a"}' } } });
    assert.ok(t.queue.pending.has(`${NS}/test-ws`), JSON.stringify([...t.queue.pending]));
  });
});

describe('deletion cost (TestSubsetPodDeletionCost vectors)', () => {
  const two = ws([{ name: 'subset-a', maxReplicas: 3 }, { name: 'subset-b', maxReplicas: 3 }]);
  const placed = (subset: string, n: number) => Array.from({ length: n }, (_, i) => ({ pod: { metadata: { name: `${subset}-${i}`, creationTimestamp: `2025-06-01T00:00:0${i}Z` }, spec: { nodeName: 'n' }, status: { phase: 'Running' } } as unknown as Pod, subset, key: `${subset}-${i}` }));
  const costs = (w: WorkloadSpread, pods: ReturnType<typeof placed>, version = 'v', latest = 'v') => [...deletionCosts(w, pods, version, latest, 6).values()];
  it('index 0 with 3 pods → 200; index 1 → 100', () => {
    assert.deepEqual(costs(two, placed('subset-a', 3)), ['200', '200', '200']);
    assert.deepEqual(costs(two, placed('subset-b', 3)), ['100', '100', '100']);
  });
  it('index 0 with 4 pods → one −100 (the newest), three 200; index 1 → one −200', () => {
    const a = placed('subset-a', 4);
    const out = deletionCosts(two, a, 'v', 'v', 6);
    assert.deepEqual(a.map((p) => out.get(p)), ['200', '200', '200', '-100']);
    assert.deepEqual(costs(two, placed('subset-b', 4)).sort(), ['-200', '100', '100', '100']);
  });
  it('an old version ranks its subsets in reverse', () => {
    const multi = ws([{ name: 'subset-a', maxReplicas: 3 }, { name: 'subset-b' }]);
    assert.deepEqual(costs(multi, [...placed('subset-a', 1), ...placed('subset-b', 1)], 'new', 'new'), ['200', '100']);
    assert.deepEqual(costs(multi, [...placed('subset-a', 1), ...placed('subset-b', 1)], 'old', 'new'), ['100', '200']);
  });
});

describe('subset statuses', () => {
  it('a fresh deleting record of a live pod keeps one place open; a stale one is dropped with DeletePodFailed', () => {
    const w = ws([{ name: 'subset-a', maxReplicas: 2 }]);
    const pod = (name: string) => ({ pod: { metadata: { name } } as Pod, subset: 'subset-a', key: name });
    const r = subsetStatuses(w, [pod('x'), pod('y')], [{ name: 'subset-a', replicas: 2, missingReplicas: 0, deletingPods: { x: '2025-06-01T11:59:55Z', y: '2025-06-01T11:59:00Z' } }], 2, new Date('2025-06-01T12:00:00Z'));
    assert.deepEqual(r.statuses, [{ name: 'subset-a', replicas: 2, missingReplicas: 1, deletingPods: { x: '2025-06-01T11:59:55Z' } }]);
    assert.deepEqual(r.events.map((e) => e.reason), ['DeletePodFailed']);
    assert.equal(r.requeueMs, 10_000);
  });
});
