// The CloneSet controller against the fake apiserver: scale up with names and revisions as upstream, readiness
// gates, scale down, in-place image update, ReCreate, podsToDelete.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { defaultCloneSet } from '../../shared/domain/cloneset/defaults.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { cloneSetController } from './controller.js';
import { CREATES_IN_FLIGHT } from './scale-sync.js';
import { POD_WRITE_CONCURRENCY } from './update-sync.js';
import { kubeletRan } from './test-harness.js';

const seed = (edit: (cs: CloneSet) => void = () => {}): CloneSet => {
  const cs = defaultCloneSet({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'busybox', namespace: 'default', generation: 1 }, spec: {
    replicas: 3, selector: { matchLabels: { app: 'hotupgrade' } },
    template: { metadata: { labels: { app: 'hotupgrade' } }, spec: { containers: [{ name: 'busybox', image: 'openkruise/hotupgrade-sample:busybox' }] } } } });
  edit(cs);
  return cs;
};

let cluster: FakeCluster;
let queue: RecordingQueue;
let reconcile: (key: string) => Promise<{ requeueAfterMs?: number } | void>;
let events: { reason: string; message: string }[];

function start(cs: CloneSet) {
  cluster = new FakeCluster();
  cluster.seed(resources.cloneSets, cs);
  queue = new RecordingQueue();
  const f = fakeDeps(cluster);
  events = f.events;
  const fn = cloneSetController.setup(f.deps, queue);
  reconcile = (key) => fn(key, f.ctx);
  queue.add('default/busybox');
}

const pods = () => cluster.informers.cache<Pod>(resources.pods).list().filter((p) => !p.metadata?.deletionTimestamp);
const cloneSet = () => cluster.get<CloneSet>(resources.cloneSets, 'busybox', 'default')!;

/** Plays kubelet: every pod Running, containers ready on their spec image, Ready = all gates True. */
async function runPods(): Promise<void> {
  for (const p of pods()) await cluster.rest.replace(resources.pods, kubeletRan(p));
}

/** Keeps each `method` call of the fake apiserver in flight for a timer tick, as a real request, and counts the most at once. */
function inFlight(method: 'patch' | 'create'): { peak: number } {
  const inner = cluster.rest[method] as (...a: unknown[]) => Promise<unknown>;
  const seen = { peak: 0 };
  let now = 0;
  (cluster.rest as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    seen.peak = Math.max(seen.peak, ++now);
    try {
      await new Promise((r) => setTimeout(r, 1));
      return await inner(...args);
    } finally {
      now--;
    }
  };
  return seen;
}

async function settle(rounds = 6) {
  for (let i = 0; i < rounds; i++) {
    await queue.drain(reconcile);
    await runPods();
    queue.add('default/busybox');
  }
  await queue.drain(reconcile);
}

describe('cloneset-controller', () => {
  beforeEach(() => start(seed()));

  it('creates 3 pods named busybox-<5 chars> at revision busybox-69478977cd, with status and one ControllerRevision', async () => {
    await settle();
    const ps = pods();
    assert.equal(ps.length, 3);
    for (const p of ps) {
      assert.match(p.metadata!.name!, /^busybox-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(p.metadata?.labels?.['controller-revision-hash'], 'busybox-69478977cd');
      assert.equal(p.metadata?.labels?.['apps.kruise.io/cloneset-instance-id'], p.metadata!.name!.slice(-5));
      assert.equal(p.metadata?.labels?.['lifecycle.apps.kruise.io/state'], 'Normal');
      assert.deepEqual(p.spec?.readinessGates, [{ conditionType: 'InPlaceUpdateReady' }]);
      assert.equal(p.metadata?.ownerReferences?.[0]?.kind, 'CloneSet');
    }
    const revs = cluster.informers.cache<{ metadata: { name: string }; revision: number }>(resources.controllerRevisions).list();
    assert.deepEqual(revs.map((r) => [r.metadata.name, r.revision]), [['busybox-69478977cd', 1]]);
    const st = cloneSet().status!;
    assert.deepEqual([st.replicas, st.readyReplicas, st.updatedReplicas, st.updatedReadyReplicas, st.availableReplicas], [3, 3, 3, 3, 3]);
    assert.equal(st.currentRevision, 'busybox-69478977cd');
    assert.equal(st.labelSelector, 'app=hotupgrade');
    assert.equal(events.filter((e) => e.reason === 'SuccessfulCreate').length, 3);
  });

  it('scales down to 1, deleting the pod named in podsToDelete first', async () => {
    await settle();
    const victim = pods()[1]!.metadata!.name!;
    const cs = cloneSet();
    cs.spec!.replicas = 1;
    cs.spec!.scaleStrategy = { podsToDelete: [victim] };
    await cluster.rest.replace(resources.cloneSets, cs);
    await settle();
    assert.equal(pods().length, 1);
    assert.ok(!pods().some((p) => p.metadata?.name === victim));
    assert.deepEqual(cloneSet().spec?.scaleStrategy?.podsToDelete, [], 'the deleted name is dropped from the spec');
  });

  it('InPlaceIfPossible: an image change keeps every pod (same name and UID) and restarts the container', async () => {
    await settle();
    const before = new Map(pods().map((p) => [p.metadata!.name!, p.metadata!.uid]));
    const cs = cloneSet();
    cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible', maxUnavailable: 1 };
    cs.spec!.template.spec!.containers[0]!.image = 'openkruise/hotupgrade-sample:busybox2';
    await cluster.rest.replace(resources.cloneSets, cs);
    await settle(12);
    const after = pods();
    assert.deepEqual(new Map(after.map((p) => [p.metadata!.name!, p.metadata!.uid])), before);
    for (const p of after) {
      assert.equal(p.spec?.containers[0]?.image, 'openkruise/hotupgrade-sample:busybox2');
      assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 1);
      assert.equal(p.metadata?.labels?.['lifecycle.apps.kruise.io/state'], 'Normal');
      assert.equal(p.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status, 'True');
      assert.match(p.metadata?.annotations?.['apps.kruise.io/inplace-update-state'] ?? '', /"updateImages":true/);
    }
    const st = cloneSet().status!;
    assert.equal(st.updatedReplicas, 3);
    assert.equal(st.currentRevision, st.updateRevision);
    assert.equal(events.filter((e) => e.reason === 'SuccessfulUpdatePodInPlace').length, 3);
  });

  it('ReCreate: an image change replaces the pods with new ones at the new revision', async () => {
    await settle();
    const before = new Set(pods().map((p) => p.metadata!.name!));
    const cs = cloneSet();
    cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, maxUnavailable: 1 };
    cs.spec!.template.spec!.containers[0]!.image = 'openkruise/hotupgrade-sample:busybox2';
    await cluster.rest.replace(resources.cloneSets, cs);
    await settle(20);
    const after = pods();
    assert.equal(after.length, 3);
    for (const p of after) {
      assert.ok(!before.has(p.metadata!.name!), `${p.metadata!.name} is a new pod`);
      assert.equal(p.spec?.containers[0]?.image, 'openkruise/hotupgrade-sample:busybox2');
    }
    assert.equal(events.filter((e) => e.reason === 'SuccessfulUpdatePodReCreate').length, 3);
  });

  it('partition 4 and maxUnavailable 2 on 10 pods: 6 updated in place, never more than 2 unavailable at once', async () => {
    start(seed((c) => { c.spec!.replicas = 10; }));
    await settle();
    const cs = cloneSet();
    cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible', partition: 4, maxUnavailable: 2 };
    cs.spec!.template.spec!.containers[0]!.image = 'openkruise/hotupgrade-sample:busybox2';
    await cluster.rest.replace(resources.cloneSets, cs);
    let worst = 0;
    for (let i = 0; i < 20; i++) {
      await queue.drain(reconcile);
      const unavailable = pods().filter((p) => p.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status === 'False'
        || p.spec?.containers[0]?.image !== p.status?.containerStatuses?.[0]?.image).length;
      worst = Math.max(worst, unavailable);
      await runPods();
      queue.add('default/busybox');
    }
    const images = pods().map((p) => p.spec?.containers[0]?.image);
    assert.equal(images.filter((i) => i === 'openkruise/hotupgrade-sample:busybox2').length, 6);
    assert.equal(pods().length, 10);
    assert.ok(worst > 0 && worst <= 2, `at most 2 pods unavailable at once (saw ${worst})`);
    const st = cloneSet().status!;
    assert.deepEqual([st.updatedReplicas, st.expectedUpdatedReplicas], [6, 6]);
    assert.notEqual(st.currentRevision, st.updateRevision, 'the partition keeps the old revision current');
  });

  it('an in-place rollout reads no pod from the API: each status write answers with the pod the next write starts from', async () => {
    start(seed((c) => { c.spec!.replicas = 10; }));
    await settle();
    cluster.calls.length = 0;
    const cs = cloneSet();
    cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible', maxUnavailable: '50%' };
    cs.spec!.template.spec!.containers[0]!.image = 'openkruise/hotupgrade-sample:busybox2';
    await cluster.rest.replace(resources.cloneSets, cs);
    await settle(12);
    assert.equal(pods().filter((p) => p.spec?.containers[0]?.image === 'openkruise/hotupgrade-sample:busybox2' && p.metadata?.labels?.['lifecycle.apps.kruise.io/state'] === 'Normal').length, 10);
    const byKind = (m: string, sub?: string) => cluster.calls.filter((c) => c.plural === 'pods' && c.method === m && c.subresource === sub).length;
    assert.equal(byKind('GET'), 0, 'no GET of a pod');
    // Per pod: InPlaceUpdateReady False (status), the update (pod), InPlaceUpdateReady True (status), state Normal (pod).
    assert.deepEqual([byKind('PATCH', 'status'), byKind('PATCH')], [20, 20]);
  });

  it('the pods of one round are written concurrently, at most POD_WRITE_CONCURRENCY at once', async () => {
    start(seed((c) => { c.spec!.replicas = 40; }));
    await settle();
    const cs = cloneSet();
    cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible', maxUnavailable: '100%' };
    cs.spec!.template.spec!.containers[0]!.image = 'openkruise/hotupgrade-sample:busybox2';
    await cluster.rest.replace(resources.cloneSets, cs);
    const patches = inFlight('patch');
    await queue.drain(reconcile);
    assert.equal(pods().filter((p) => p.spec?.containers[0]?.image === 'openkruise/hotupgrade-sample:busybox2').length, 40, 'the whole budget in one round');
    assert.equal(patches.peak, POD_WRITE_CONCURRENCY);
  });

  it('a slow-start batch creates at most CREATES_IN_FLIGHT pods at once (100 replicas: batches up to 64)', async () => {
    start(seed((c) => { c.spec!.replicas = 100; }));
    const creates = inFlight('create');
    await queue.drain(reconcile);
    assert.equal(pods().length, 100);
    assert.equal(creates.peak, CREATES_IN_FLIGHT);
  });
});
