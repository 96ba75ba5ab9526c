import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';
import { jobPod, main, sidecar, type PodOpts, type State } from '../../shared/domain/sidecar-terminator/fixtures.js';
import { resources } from '../../shared/kube/resources.js';
import type { Container } from '../../shared/api/meta.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { sidecarTerminatorController } from './controller.js';

const node = (name: string, vk = false): V1Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, ...(vk ? { labels: { type: 'virtual-kubelet' } } : {}) } });

function world(containers: Container[], states: Record<string, State>, opts: PodOpts & { vk?: boolean; noNode?: boolean } = {}) {
  const cluster = new FakeCluster();
  if (!opts.noNode) cluster.seed(resources.nodes, node('n1', opts.vk));
  const seeded = cluster.seed(resources.pods, jobPod(containers, states, opts));
  const queue = new RecordingQueue();
  const f = fakeDeps(cluster);
  const reconcile = sidecarTerminatorController.setup(f.deps, queue);
  const run = (times = 1) => (async () => { for (let i = 0; i < times; i++) await reconcile('default/job', f.ctx); })();
  const crr = () => cluster.get<ContainerRecreateRequest & { metadata: object }>(resources.containerRecreateRequests, `sidecar-termination-${seeded.metadata!.uid}`, 'default');
  const pod = () => cluster.get<Pod>(resources.pods, 'job', 'default')!;
  /** The pod's status as the kubelet would next report it. */
  const setStates = async (next: Record<string, State>) => {
    const fresh = jobPod(containers, next, opts).status!.containerStatuses;
    await cluster.rest.patch(resources.pods, { namespace: 'default', name: 'job', subresource: 'status' }, 'merge', { status: { containerStatuses: fresh } });
  };
  return { cluster, queue, f, run, crr, pod, uid: seeded.metadata!.uid!, setStates };
}

const writes = (c: FakeCluster) => c.calls.filter((x) => x.method !== 'GET').map((x) => `${x.method} ${x.plural}${x.subresource ? `/${x.subresource}` : ''} ${x.name}`);

describe('sidecarterminator-controller over the fake cluster', () => {
  it('is gated by SidecarTerminator, as upstream registers it', () => assert.equal(sidecarTerminatorController.featureGate, 'SidecarTerminator'));

  it('main exited, sidecar running: creates sidecar-termination-<uid> as upstream builds it, once, with its event', async () => {
    const w = world([main(), sidecar()], { main: 137, sidecar: 'running' });
    await w.run(3);
    const crr = w.crr();
    assert.ok(crr, 'CRR created');
    assert.deepEqual(crr.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'job', uid: w.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(crr.spec, { podName: 'job', containers: [{ name: 'sidecar' }], strategy: { forceRecreate: true, failurePolicy: 'Ignore' } });
    assert.deepEqual(writes(w.cluster), [`POST containerrecreaterequests sidecar-termination-${w.uid}`], 'one create however many reconciles');
    assert.deepEqual(w.f.events.map((e) => [e.kind, e.type, e.reason, e.message]),
      [['Pod', 'Normal', 'SidecarTerminator', 'Kruise SidecarTerminator is trying to terminate sidecar [sidecar] using crr']]);
    assert.equal(w.pod().status?.phase, 'Running', 'the phase is the kubelet\'s to set');
  });

  it('a CRR the cache does not show yet (AlreadyExists) is taken as there', async () => {
    const w = world([main(), sidecar()], { main: 0, sidecar: 'running' });
    w.cluster.lagging(resources.containerRecreateRequests, true);
    await w.run(2);
    assert.deepEqual(writes(w.cluster).length, 2, 'the second create finds it');
    assert.equal(w.f.events.length, 1);
  });

  it('ignore-exit-code: the phase is decided by the main containers, then the sidecar gets its CRR', async () => {
    const w = world([main(), sidecar('quiet', { ignore: true })], { main: 0, quiet: 'running' }, { restartPolicy: 'OnFailure' });
    await w.run();
    const status = w.pod().status!;
    assert.equal(status.phase, 'Succeeded');
    assert.deepEqual(status.conditions, [{ type: 'SidecarTerminated', status: 'True', lastTransitionTime: '2025-06-01T12:00:00Z', message: 'Terminated by Sidecar Terminator' }]);
    assert.deepEqual(writes(w.cluster), ['PATCH pods/status job', `POST containerrecreaterequests sidecar-termination-${w.uid}`]);
    assert.deepEqual(w.crr()!.spec!.containers, [{ name: 'quiet' }]);
    await w.run();
    assert.equal(writes(w.cluster).length, 2, 'a terminal phase is not patched again');
  });

  it('a refused status patch is an error with upstream\'s prefix (retried), and no CRR is made before the phase is set', async () => {
    const w = world([main(), sidecar('quiet', { ignore: true })], { main: 0, quiet: 'running' });
    const patch = w.cluster.rest.patch;
    w.cluster.rest.patch = async () => { throw new Error('boom'); };
    await assert.rejects(w.run(), /^Error: failed to patch pod status: boom$/);
    w.cluster.rest.patch = patch;
    assert.equal(w.crr(), undefined);
  });

  it('a failed main container makes the ignore-exit-code pod Failed', async () => {
    const w = world([main(), sidecar('quiet', { ignore: true })], { main: 2, quiet: 'running' });
    await w.run();
    assert.equal(w.pod().status!.phase, 'Failed');
  });

  it('normal + ignore-exit-code: one CRR name per pod, so the second set gets none; the terminal phase is what stops it (quirk 13)', async () => {
    const w = world([main(), sidecar('side'), sidecar('quiet', { ignore: true })], { main: 0, side: 'running', quiet: 'running' });
    await w.run();
    assert.deepEqual(w.crr()!.spec!.containers, [{ name: 'side' }]);
    assert.equal(w.pod().status!.phase, 'Running', 'not while a normal sidecar runs');
    await w.setStates({ main: 0, side: 0, quiet: 'running' });
    await w.run();
    assert.equal(w.pod().status!.phase, 'Succeeded');
    assert.deepEqual(w.crr()!.spec!.containers, [{ name: 'side' }], 'the existing CRR stands');
    assert.equal(writes(w.cluster).filter((x) => x.startsWith('POST')).length, 1);
  });

  it('virtual-kubelet node: the sidecar image becomes its WITH_IMAGE value in place, no CRR; the event only when it changed', async () => {
    const w = world([main(), sidecar()], { main: 0, sidecar: 'running' }, { vk: true });
    await w.run(2);
    assert.deepEqual(w.pod().spec!.containers.map((c) => c.image), ['job:1', 'exit-quickly:latest']);
    assert.equal(w.crr(), undefined);
    assert.deepEqual(writes(w.cluster), ['PATCH pods job']);
    assert.deepEqual(w.f.events.map((e) => e.message), ['Kruise SidecarTerminator is trying to terminate sidecar [sidecar] using in-place update']);
  });

  it('a node it cannot read is retried (upstream: any error getting the node)', async () => {
    const w = world([main(), sidecar()], { main: 0, sidecar: 'running' }, { noNode: true });
    await assert.rejects(w.run(), /get node "n1" of pod default\/job: not found/);
    assert.deepEqual(writes(w.cluster), []);
  });

  it('a pod that is not Job-like, or whose main still runs, is left alone', async () => {
    for (const [states, opts] of [[{ main: 'running', sidecar: 'running' }, {}], [{ main: 0, sidecar: 'running' }, { restartPolicy: 'Always' }]] as const) {
      const w = world([main(), sidecar()], states, opts as PodOpts);
      await w.run();
      assert.deepEqual(writes(w.cluster), []);
    }
  });

  it('native sidecars: no CRR, one event per pod however often it is reconciled', async () => {
    const nativeSide: Container = { ...sidecar('proxy'), restartPolicy: 'Always' };
    const w = world([main()], { main: 0 }, { initContainers: [nativeSide] });
    await w.run(3);
    assert.deepEqual(writes(w.cluster), []);
    assert.deepEqual(w.f.events.map((e) => [e.kind, e.name, e.reason]), [['Pod', 'job', 'SidecarTerminator']]);
    assert.match(w.f.events[0]!.message, /leaves sidecar \[proxy\] to the kubelet/);
  });

  it('enqueues on a pod change only the pods it has work for (sidecar_terminator_pod_event_handler_test.go)', async () => {
    const cluster = new FakeCluster();
    const queue = new RecordingQueue();
    sidecarTerminatorController.setup(fakeDeps(cluster).deps, queue);
    const add = (name: string, states: Record<string, State>, opts: PodOpts = {}) => {
      const p = jobPod([main(), sidecar()], states, opts);
      cluster.seed(resources.pods, { ...p, metadata: { ...p.metadata, name, uid: `u-${name}` } });
    };
    add('pending', { main: 0, sidecar: 'running' }, { phase: 'Pending' });
    add('always', { main: 0, sidecar: 'running' }, { restartPolicy: 'Always' });
    add('due', { main: 0, sidecar: 'running' });
    add('done', { main: 0, sidecar: 0 }, { phase: 'Succeeded' });
    add('sidecar-exited', { main: 0, sidecar: 137 });
    add('main-running', { main: 'running', sidecar: 'running' });
    assert.deepEqual([...queue.pending], ['default/due']);
  });
});
