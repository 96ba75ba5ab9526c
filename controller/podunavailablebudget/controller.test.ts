// podunavailablebudget-controller over the fake apiserver (spec/availability-guards.md §5; V1 and V4 of §6).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../shared/api/meta.js';
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { podUnavailableBudgetController } from './controller.js';

const running = (name: string, owner: { kind: string; name: string; uid: string; apiVersion?: string } | undefined, o: { ready?: boolean; deleting?: boolean; related?: string } = {}): Pod => ({
  metadata: {
    name, namespace: 'default', labels: { app: 'nginx' },
    ...(o.related ? { annotations: { 'kruise.io/related-pub': o.related } } : {}),
    ...(owner ? { ownerReferences: [{ apiVersion: owner.apiVersion ?? 'apps/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }] } : {}),
    ...(o.deleting ? { deletionTimestamp: new Date(), finalizers: ['hold'] } : {}),
  },
  spec: { containers: [{ name: 'main', image: 'nginx:v1' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }], containerStatuses: [{ name: 'main', image: 'nginx:v1', imageID: 'nginx@sha256:1', ready: true, restartCount: 0 }] },
});

function world(o: { replicas: number; pods: number; notReady?: number[]; deleting?: number[]; deploymentDeleting?: boolean }) {
  const cluster = new FakeCluster();
  const queue = new RecordingQueue();
  const f = fakeDeps(cluster, { FEATURE_GATES: 'PodUnavailableBudgetUpdateGate=true' });
  // Set up first: the informers' onChange then sees every object, as a real informer's initial list delivers them.
  const reconcile = podUnavailableBudgetController.setup(f.deps, queue);
  const dep = cluster.seed(resources.deployments, { metadata: { name: 'nginx', namespace: 'default', uid: 'dep-uid', ...(o.deploymentDeleting ? { deletionTimestamp: new Date(), finalizers: ['x'] } : {}) }, spec: { replicas: o.replicas, template: { metadata: { labels: { app: 'nginx' } } } } } as never);
  const rsOwner = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx', uid: (dep as { metadata: { uid: string } }).metadata.uid, controller: true }];
  cluster.seed(resources.replicaSets, { metadata: { name: 'nginx-1', namespace: 'default', uid: 'rs-1', ownerReferences: rsOwner }, spec: { replicas: 5 } } as never);
  cluster.seed(resources.replicaSets, { metadata: { name: 'nginx-2', namespace: 'default', uid: 'rs-2', ownerReferences: rsOwner }, spec: { replicas: 5 } } as never);
  for (let i = 0; i < o.pods; i++) {
    cluster.seed(resources.pods, running(`test-pod-${i}`, { kind: 'ReplicaSet', name: i % 2 ? 'nginx-2' : 'nginx-1', uid: i % 2 ? 'rs-2' : 'rs-1' },
      { ready: !o.notReady?.includes(i), deleting: !!o.deleting?.includes(i) }));
  }
  const run = async (pub: PodUnavailableBudget) => {
    cluster.seed(resources.podUnavailableBudgets, { metadata: { namespace: 'default', generation: 1, ...pub.metadata }, spec: pub.spec, ...(pub.status ? { status: pub.status } : {}) } as never);
    const r = await reconcile(`default/${pub.metadata?.name}`, f.ctx);
    const got = cluster.get<PodUnavailableBudget>(resources.podUnavailableBudgets, pub.metadata!.name!, 'default')!;
    const s = got.status!;
    return { status: [s.unavailableAllowed, s.currentAvailable, s.desiredAvailable, s.totalReplicas], full: s, result: r };
  };
  const rerun = async (name: string) => {
    const r = await reconcile(`default/${name}`, f.ctx);
    const s = cluster.get<PodUnavailableBudget>(resources.podUnavailableBudgets, name, 'default')!.status!;
    return { status: [s.unavailableAllowed, s.currentAvailable, s.desiredAvailable, s.totalReplicas], full: s, result: r };
  };
  return { cluster, run, rerun, events: f.events, clock: f.clock, queue };
}

const bySelector = (spec: Partial<NonNullable<PodUnavailableBudget['spec']>>, annotations?: Record<string, string>): PodUnavailableBudget =>
  ({ metadata: { name: 'pub-test', ...(annotations ? { annotations } : {}) }, spec: { selector: { matchLabels: { app: 'nginx' } }, ...spec } });
const byRef = (spec: Partial<NonNullable<PodUnavailableBudget['spec']>>, annotations?: Record<string, string>): PodUnavailableBudget =>
  ({ metadata: { name: 'pub-test', ...(annotations ? { annotations } : {}) }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }, ...spec } });

describe('PUB reconcile (V1: allowed / current / desired / total)', () => {
  const cases: [string, Parameters<typeof world>[0], PodUnavailableBudget, number[]][] = [
    ['selector; Deployment replicas 0; 10 pods in two ReplicaSets', { replicas: 0, pods: 10 }, bySelector({ maxUnavailable: '30%' }), [10, 10, 0, 0]],
    ['selector; total-replicas 15', { replicas: 10, pods: 10 }, bySelector({ maxUnavailable: '30%' }, { 'pub.kruise.io/protect-total-replicas': '15' }), [0, 10, 10, 15]],
    ['selector; 13 pods, one not Ready', { replicas: 10, pods: 13, notReady: [3] }, bySelector({ maxUnavailable: '30%' }), [5, 12, 7, 10]],
    ['selector; 13 pods: 3 deleting, 1 not Ready', { replicas: 10, pods: 13, deleting: [0, 1, 2], notReady: [3] }, bySelector({ maxUnavailable: '30%' }), [2, 9, 7, 10]],
    ['selector; Deployment deleting', { replicas: 10, pods: 10, deploymentDeleting: true }, bySelector({ maxUnavailable: '30%' }), [10, 10, 0, 0]],
    ['targetRef; replicas 0: no pods listed', { replicas: 0, pods: 10 }, byRef({ maxUnavailable: '30%' }), [0, 0, 0, 0]],
    ['targetRef; replicas 1, total-replicas 15', { replicas: 1, pods: 10 }, byRef({ maxUnavailable: '30%' }, { 'pub.kruise.io/protect-total-replicas': '15' }), [0, 10, 10, 15]],
    ['targetRef; replicas 1', { replicas: 1, pods: 10 }, byRef({ maxUnavailable: '30%' }), [10, 10, 0, 1]],
    ['targetRef; replicas 10, 3 deleting', { replicas: 10, pods: 10, deleting: [0, 1, 2] }, byRef({ maxUnavailable: '30%' }), [0, 7, 7, 10]],
    ['targetRef; Deployment deleting', { replicas: 10, pods: 10, deploymentDeleting: true }, byRef({ maxUnavailable: '30%' }), [0, 0, 0, 0]],
    ['maxUnavailable 0%', { replicas: 10, pods: 10 }, byRef({ maxUnavailable: '0%' }), [0, 10, 10, 10]],
    ['maxUnavailable 100%', { replicas: 10, pods: 10 }, byRef({ maxUnavailable: '100%' }), [10, 10, 0, 10]],
    ['maxUnavailable int 100', { replicas: 10, pods: 10 }, byRef({ maxUnavailable: 100 }), [10, 10, 0, 10]],
    ['minAvailable int 100 is not capped', { replicas: 10, pods: 5 }, byRef({ minAvailable: 100 }), [0, 5, 100, 10]],
    ['minAvailable 50%', { replicas: 10, pods: 5 }, byRef({ minAvailable: '50%' }), [0, 5, 5, 10]],
    ['minAvailable 80%', { replicas: 10, pods: 10 }, byRef({ minAvailable: '80%' }), [2, 10, 8, 10]],
  ];
  for (const [name, w, pub, want] of cases) it(name, async () => assert.deepEqual((await world(w).run(pub)).status, want));

  it('the related-pub annotation is filled on listed pods lacking it', async () => {
    const w = world({ replicas: 2, pods: 2 });
    await w.run(byRef({ maxUnavailable: 1 }));
    assert.equal(w.cluster.get<Pod>(resources.pods, 'test-pod-0', 'default')?.metadata?.annotations?.['kruise.io/related-pub'], 'pub-test');
  });

  it('records: kept before their time-out (requeue at the earliest), dropped after, NotDeleted for a disruption that never happened', async () => {
    const w = world({ replicas: 10, pods: 10 });
    const now = w.clock.now();
    const at = (sAgo: number) => new Date(Math.floor((now - sAgo * 1000) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const r = await w.run({ ...byRef({ maxUnavailable: '30%' }), status: {
      unavailableAllowed: 0, currentAvailable: 0, desiredAvailable: 0, totalReplicas: 0,
      unavailablePods: { 'test-pod-0': at(2), 'test-pod-1': at(11) },
      disruptedPods: { 'test-pod-2': at(5), 'test-pod-3': at(125), 'gone-pod': at(1) },
    } });
    assert.deepEqual(r.full.unavailablePods, { 'test-pod-0': at(2) });
    assert.deepEqual(r.full.disruptedPods, { 'test-pod-2': at(5) });
    assert.deepEqual(r.status, [1, 8, 7, 10]);
    assert.deepEqual(w.events.filter((e) => e.reason === 'NotDeleted').map((e) => [e.name, e.message]), [['test-pod-3', 'Pod was expected by PUB default/pub-test to be deleted but it wasn\'t']]);
    assert.equal((r.result as { requeueAfterMs?: number }).requeueAfterMs, 8_000);
  });

  it('a record written by OpenKruise holds the unit for 20 s, then the requeued reconcile frees it', async () => {
    const w = world({ replicas: 3, pods: 3 });
    const at = new Date(Math.floor(w.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const first = await w.run({ ...byRef({ maxUnavailable: 1 }), status: { unavailableAllowed: 0, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3, observedGeneration: 1, disruptedPods: { 'test-pod-2': at } } });
    assert.deepEqual(first.status, [0, 2, 2, 3]);
    const after = (first.result as { requeueAfterMs: number }).requeueAfterMs;
    assert.ok(after > 19_000 && after <= 20_000, String(after));
    await w.clock.advance(after + 1);
    const again = await w.rerun('pub-test');
    assert.deepEqual(again.status, [1, 3, 2, 3]);
    assert.equal(again.full.disruptedPods, undefined);
  });

  it('an invalid percent: CalculateExpectedPodCountFailed and an error', async () => {
    const w = world({ replicas: 10, pods: 10 });
    await assert.rejects(w.run(byRef({ maxUnavailable: '30' })), /string is not a percentage/);
    assert.ok(w.events.some((e) => e.reason === 'CalculateExpectedPodCountFailed'));
  });

  it('no pods: NoPods event', async () => {
    const w = world({ replicas: 0, pods: 0 });
    await w.run(byRef({ maxUnavailable: 1 }));
    assert.ok(w.events.some((e) => e.reason === 'NoPods' && e.message === 'No matching pods found'));
  });
});

describe('watches (V4)', () => {
  it('a pod created with the annotation of an existing PUB, and a Ready flip, enqueue the PUB; an image change of a ready pod does not', async () => {
    const w = world({ replicas: 1, pods: 0 });
    w.cluster.seed(resources.podUnavailableBudgets, { metadata: { name: 'pub-test', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'nginx' } }, maxUnavailable: 1 } } as never);
    w.queue.pending.clear();
    await w.cluster.rest.create(resources.pods, running('p', undefined, { related: 'pub-test' }));
    assert.deepEqual([...w.queue.pending], ['default/pub-test']);
    w.queue.pending.clear();
    const p = w.cluster.get<Pod>(resources.pods, 'p', 'default')!;
    await w.cluster.rest.replace(resources.pods, { ...p, spec: { containers: [{ name: 'main', image: 'nginx:v2' }] } });
    assert.deepEqual([...w.queue.pending], []);
    const q = w.cluster.get<Pod>(resources.pods, 'p', 'default')!;
    await w.cluster.rest.replace(resources.pods, { ...q, status: { ...q.status, conditions: [{ type: 'Ready', status: 'False' }] } });
    assert.deepEqual([...w.queue.pending], ['default/pub-test']);
  });
});
