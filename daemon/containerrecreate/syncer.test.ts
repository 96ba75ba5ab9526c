// The syncer against the CRI fake and an in-memory CRR store, round by round as the runner would drive it. The test
// plays kubelet (recreating a stopped container) and the manager (the sync-container-statuses annotation).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { silentLogger } from '../../shared/log.js';
import { CriError } from '../cri/errors.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { ResourceVersionExpectations } from './expectations.js';
import type { CrrEvent } from './kill.js';
import { CrrSyncer, type ExecutorOutcome } from './syncer.js';
import { crr, MemoryCrrStore, POD_UID, syncedAnnotation, T0, type CrrOptions } from './testing.js';

const KEY = 'default/web-0';

function world(opts: { podPresent?: boolean } = {}) {
  let now = T0 + 60_000;
  const rt = new FakeRuntime();
  const store = new MemoryCrrStore();
  const events: CrrEvent[] = [];
  const outcomes: ExecutorOutcome[] = [];
  let cache: (() => ContainerRecreateRequest[]) | undefined;
  const syncer = new CrrSyncer({
    crrsForPod: (ns, pod) => (cache ? cache() : store.list()).filter((c) => c.metadata?.namespace === ns && c.spec?.podName === pod),
    podPresent: async () => opts.podPresent ?? true,
    runtimes: new Map([['containerd', rt]]),
    writer: store,
    expectations: new ResourceVersionExpectations(() => now),
    emitEvent: (e) => events.push(e),
    now: () => now,
    log: silentLogger(),
    onOutcome: (o) => outcomes.push(o),
  });
  const attempts = new Map<string, number>();
  const addContainer = (name: string, id: string, restartCount = 0, atMs = now) => rt.addContainer({
    id, name, state: 'running', createdAtNs: BigInt(atMs) * 1_000_000n, startedAtNs: BigInt(atMs) * 1_000_000n,
    labels: { 'io.kubernetes.pod.uid': POD_UID, 'io.kubernetes.container.name': name },
    annotations: { 'io.kubernetes.container.restartCount': String(restartCount) },
  });
  return {
    rt, store, events, outcomes, syncer,
    sync: () => syncer.sync(KEY),
    advance: (ms: number) => { now += ms; },
    setCache: (f: (() => ContainerRecreateRequest[]) | undefined) => { cache = f; },
    addContainer,
    /** kubelet: every exited container gets a successor with restartCount+1. */
    kubeletRestarts() {
      for (const c of [...rt.containers.values()]) {
        const name = c.labels['io.kubernetes.container.name']!;
        const newest = [...rt.containers.values()].filter((x) => x.labels['io.kubernetes.container.name'] === name).sort((a, b) => Number(b.createdAtNs - a.createdAtNs))[0];
        if (newest !== c || c.state !== 'exited') continue;
        const n = (attempts.get(name) ?? 0) + 1;
        attempts.set(name, n);
        now += 1_000;
        addContainer(name, `${name}-${n + 1}`, n);
      }
    },
    /** manager: report the newest instance of `names` ready. */
    managerReportsReady(name: string, ...names: string[]) {
      now += 1_000;
      const c = store.get(name)!;
      const reports = names.map((n) => {
        const newest = [...rt.containers.values()].filter((x) => x.name === n).sort((a, b) => Number(b.createdAtNs - a.createdAtNs))[0]!;
        return { name: n, containerID: `containerd://${newest.id}`, ready: true };
      });
      store.put({ ...c, metadata: { ...c.metadata, resourceVersion: String(Number(c.metadata!.resourceVersion) + 1000), annotations: syncedAnnotation(...reports) } });
    },
  };
}

const withContainers = (w: ReturnType<typeof world>, ...names: string[]) => {
  // Started well before the CRRs (created at T0), as the webhook requires.
  for (const n of names) w.addContainer(n, `${n}-1`, 0, T0 - 60_000);
  return names.map((n) => ({ name: n, id: `containerd://${n}-1` }));
};

const phaseOf = (w: ReturnType<typeof world>, name = 'crr-1') => w.store.get(name)?.status?.phase;
const statesOf = (w: ReturnType<typeof world>, name = 'crr-1') => (w.store.get(name)?.status?.containerRecreateStates ?? []).map((s) => `${s.name}:${s.phase}${s.isKilled ? '*' : ''}`);

function put(w: ReturnType<typeof world>, o: CrrOptions) {
  w.store.put(crr({ createdAt: T0, ...o }));
}

test('one container: one sync takes it to Recreating and stops it; Succeeded and Completed once reported ready', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'app') });
  let writesAtStop = -1;
  const stopContainer = w.rt.stopContainer.bind(w.rt);
  w.rt.stopContainer = async (...a) => { writesAtStop = w.store.writes.length; return stopContainer(...a); };
  await w.sync();
  assert.equal(phaseOf(w), 'Recreating');
  assert.deepEqual(w.rt.callsOf('stopContainer'), [['app-1', 30]]);
  assert.equal(writesAtStop, 1, 'exactly the Recreating write was sent when the container was stopped');
  assert.deepEqual(statesOf(w), ['app:Recreating*']);
  assert.deepEqual(w.store.writes.map((x) => x.kind), ['status', 'states']);
  assert.deepEqual(w.store.writes[0]?.body, { phase: 'Recreating', containerRecreateStates: [{ name: 'app', phase: 'Pending' }] },
    'Recreating with Pending states is the first write, sent along with the stop');
  w.kubeletRestarts();
  assert.deepEqual(await w.sync(), {});
  assert.equal(w.rt.callsOf('stopContainer').length, 1, 'the recreated container must not be killed again');
  assert.equal(w.store.writes.length, 2);
  w.managerReportsReady('crr-1', 'app');
  await w.sync();
  assert.deepEqual(statesOf(w), ['app:Succeeded*']);
  assert.equal(phaseOf(w), 'Completed');
  assert.equal(w.store.get('crr-1')?.status?.message, '');
  assert.match(w.store.get('crr-1')?.status?.completionTime ?? '', /^2026-03-01T10:01:\d\dZ$/);
  assert.deepEqual(w.outcomes.map((o) => `${o.kind}:${o.kind === 'kill' ? o.ok : o.result}`), ['kill:true', 'complete:succeeded']);
  assert.deepEqual(w.events.map((e) => e.reason), ['Killing']);
  await w.sync();
  assert.equal(w.store.writes.length, 4, 'a completed CRR is left alone');
});

test('the first status write does not hold up the stop, except with forceRecreate (isKilled stored first)', async () => {
  for (const forceRecreate of [false, true]) {
    const w = world();
    put(w, { containers: withContainers(w, 'app'), strategy: { forceRecreate } });
    // A slow apiserver: the first status write answers only when the test lets it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const updateStatus = w.store.updateStatus.bind(w.store);
    let first = true;
    w.store.updateStatus = async (c, st) => {
      if (first) { first = false; await held; }
      return updateStatus(c, st);
    };
    const sync = w.sync();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(w.rt.callsOf('stopContainer').length, forceRecreate ? 0 : 1, `forceRecreate=${forceRecreate}: stop while the write is in flight`);
    release();
    await sync;
    assert.deepEqual(w.rt.callsOf('stopContainer'), [['app-1', 30]]);
    assert.equal(phaseOf(w), 'Recreating');
    assert.deepEqual(statesOf(w), ['app:Recreating*']);
  }
});

test('a first status write that fails after the stop: the next round sees the stopped container, no second stop', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'app') });
  const updateStatus = w.store.updateStatus.bind(w.store);
  let failures = 1;
  w.store.updateStatus = async (c, st) => {
    if (failures-- > 0) throw Object.assign(new Error('Conflict'), { code: 409 });
    return updateStatus(c, st);
  };
  await assert.rejects(w.sync(), /Conflict/);
  assert.equal(w.rt.callsOf('stopContainer').length, 1);
  w.kubeletRestarts();
  await w.sync();
  assert.equal(w.rt.callsOf('stopContainer').length, 1, 'the replaced container is not stopped again');
  assert.equal(phaseOf(w), 'Recreating');
  assert.deepEqual(statesOf(w).map((x) => x.replace('*', '')), ['app:Recreating']);
});

test('orderedRecreate: the second container is stopped only after the first Succeeded', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'a', 'b'), strategy: { orderedRecreate: true } });
  await w.sync();
  assert.deepEqual(w.rt.callsOf('stopContainer'), [['a-1', 30]]);
  w.kubeletRestarts();
  await w.sync();
  await w.sync();
  assert.deepEqual(w.rt.callsOf('stopContainer').length, 1);
  assert.deepEqual(statesOf(w), ['a:Recreating*', 'b:Pending']);
  w.managerReportsReady('crr-1', 'a');
  await w.sync();
  assert.deepEqual(w.rt.callsOf('stopContainer'), [['a-1', 30], ['b-1', 30]]);
  assert.deepEqual(statesOf(w), ['a:Succeeded*', 'b:Recreating*']);
  w.kubeletRestarts();
  w.managerReportsReady('crr-1', 'a', 'b');
  await w.sync();
  assert.equal(phaseOf(w), 'Completed');
});

test('without orderedRecreate both containers are killed in consecutive rounds', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'a', 'b') });
  for (let i = 0; i < 4; i++) await w.sync();
  assert.deepEqual(w.rt.callsOf('stopContainer').map((c) => c[0]), ['a-1', 'b-1']);
  assert.deepEqual(statesOf(w), ['a:Recreating*', 'b:Recreating*']);
});

test('failurePolicy Fail: a container missing on the node fails the CRR with a clear message, nothing is killed', async () => {
  const w = world();
  put(w, { containers: [{ name: 'ghost', id: 'containerd://ghost-1' }, ...withContainers(w, 'app')] });
  for (let i = 0; i < 5; i++) await w.sync();
  assert.equal(phaseOf(w), 'Completed');
  assert.deepEqual(statesOf(w), ['ghost:Failed', 'app:Pending']);
  assert.equal(w.store.get('crr-1')?.status?.message, 'failed to recreate container ghost: not found container on Node');
  assert.equal(w.rt.callsOf('stopContainer').length, 0);
  assert.deepEqual(w.outcomes.map((o) => o.kind === 'complete' && o.result), ['failed']);
});

test('failurePolicy Ignore: the missing container fails, the other is recreated, the CRR completes', async () => {
  const w = world();
  put(w, { containers: [{ name: 'ghost', id: 'containerd://ghost-1' }, ...withContainers(w, 'app')], strategy: { failurePolicy: 'Ignore' } });
  for (let i = 0; i < 4; i++) await w.sync();
  assert.deepEqual(w.rt.callsOf('stopContainer'), [['app-1', 30]]);
  w.kubeletRestarts();
  w.managerReportsReady('crr-1', 'app');
  await w.sync();
  await w.sync();
  assert.equal(phaseOf(w), 'Completed');
  assert.deepEqual(statesOf(w), ['ghost:Failed', 'app:Succeeded*']);
  assert.equal(w.store.get('crr-1')?.status?.message, 'failed to recreate container ghost: not found container on Node');
});

test('a gone pod completes the CRR with "pod has gone" and touches no container', async () => {
  const w = world({ podPresent: false });
  put(w, { containers: withContainers(w, 'app') });
  await w.sync();
  assert.equal(phaseOf(w), 'Completed');
  assert.equal(w.store.get('crr-1')?.status?.message, 'pod has gone');
  assert.deepEqual(w.rt.calls, []);
});

test('a kill that fails marks the container Failed with the CRI error; with Fail the CRR completes', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'app') });
  w.rt.failNext('stopContainer', new CriError('internal', 'RuntimeService/StopContainer', 'cannot stop'));
  for (let i = 0; i < 4; i++) await w.sync();
  assert.equal(phaseOf(w), 'Completed');
  assert.deepEqual(w.store.get('crr-1')?.status?.containerRecreateStates, [{ name: 'app', phase: 'Failed', message: 'kill container error: RuntimeService/StopContainer: cannot stop' }]);
});

test('a second CRR for the same pod waits in Pending until the first completes', async () => {
  const w = world();
  const containers = withContainers(w, 'app');
  put(w, { name: 'crr-1', containers });
  put(w, { name: 'crr-2', containers, createdAt: T0 + 1_000 });
  await w.sync();
  assert.deepEqual([phaseOf(w, 'crr-1'), phaseOf(w, 'crr-2')], ['Recreating', 'Pending']);
  w.kubeletRestarts();
  w.managerReportsReady('crr-1', 'app');
  await w.sync();
  assert.deepEqual([phaseOf(w, 'crr-1'), phaseOf(w, 'crr-2')], ['Completed', 'Pending']);
  await w.sync();
  assert.equal(phaseOf(w, 'crr-2'), 'Recreating');
  assert.equal(w.rt.callsOf('stopContainer').length, 1, 'crr-2 found its container already recreated');
});

test('a stale cache copy never causes a second kill', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'app') });
  const before = structuredClone(w.store.list());
  await w.sync();
  assert.equal(w.rt.callsOf('stopContainer').length, 1);
  w.setCache(() => before);
  assert.deepEqual(await w.sync(), { requeueAfterMs: 1_000 });
  assert.equal(w.rt.callsOf('stopContainer').length, 1);
  // After 10 s the stale copy is trusted again: its first write fails on the resourceVersion, before any kill.
  w.advance(11_000);
  await assert.rejects(w.sync(), /conflict/);
  w.setCache(undefined);
  await w.sync();
  assert.equal(w.rt.callsOf('stopContainer').length, 1);
});

test('CRI unavailable makes the sync throw (the runner retries with backoff) and nothing is written', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'app'), status: { phase: 'Recreating' } });
  w.rt.failNext('listContainers', new CriError('unavailable', 'RuntimeService/ListContainers', 'connection refused'));
  await assert.rejects(w.sync(), /connection refused/);
  assert.equal(w.store.writes.length, 0);
  await w.sync();
  assert.deepEqual(statesOf(w), ['app:Recreating*']);
});

test('unreadyGracePeriodSeconds: nothing happens before the stamp, the sync is requeued within the grace, then it kills', async () => {
  const w = world();
  put(w, { containers: withContainers(w, 'app'), status: { phase: 'Recreating' }, strategy: { unreadyGracePeriodSeconds: 3 } });
  assert.deepEqual(await w.sync(), {});
  assert.equal(w.rt.calls.length, 0);
  const c = w.store.get('crr-1')!;
  w.store.put({ ...c, metadata: { ...c.metadata, annotations: { 'crr.apps.kruise.io/unready-acquired': '2026-03-01T10:01:00Z' } } });
  assert.deepEqual(await w.sync(), { requeueAfterMs: 3_100 });
  w.advance(3_000);
  await w.sync();
  assert.equal(w.rt.callsOf('stopContainer').length, 1);
});
