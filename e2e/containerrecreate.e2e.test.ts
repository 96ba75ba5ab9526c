// ContainerRecreateRequest end to end: the real apiserver with the kruise-ts webhook and controllers as installed, the
// daemon's CRR executor in this process talking CRI to a real containerd, and the test playing kubelet on its own
// Node (real sandboxes and containers; a stopped container is recreated with a new ID and restartCount + 1).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { destination, pino } from 'pino';
import { connectCri, type CriConnection } from '../daemon/cri/grpc-runtime.js';
import { startContainerRecreateExecutor, type ExecutorOutcome } from '../daemon/containerrecreate/executor.js';
import { restExecutorPorts } from '../daemon/containerrecreate/kube-adapters.js';
import { informerFactory } from '../shared/kube/informer-factory.js';
import type { ContainerRecreateRequest, ContainerRecreateRequestStrategy } from '../shared/api/container-recreate-request.js';
import { makeKube } from '../shared/kube/client.js';
import { resources } from '../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../shared/kube/rest.js';
import { CriNodeStandin, type StandinContainer } from './harness/cri-node-standin.js';
import { stack } from './harness/kube.js';
import { KubeletCri, startContainerd, startRuntimeEnv, type Containerd, type RuntimeEnv } from './harness/runtime/index.js';

const s = stack();
const NS = 'e2e-crr';
const NODE = 'kts-crr-node';
/** Exits 0 on SIGTERM at once (wait is interrupted by the trap), printing what a preStop hook left behind. */
const APP = ['sh', '-c', 'trap "cat /tmp/prestop 2>/dev/null; exit 0" TERM; sleep 3600 & wait'];

type Crr = ContainerRecreateRequest & KubernetesObject;

describe('ContainerRecreateRequest', { skip: typeof s === 'string' ? s : false, timeout: 600_000 }, () => {
  let env: RuntimeEnv;
  let cri: CriConnection;
  let kubelet: KubeletCri;
  let standin: CriNodeStandin;
  let rest: KubeRest;
  let kube: ReturnType<typeof makeKube>;
  let restarted: Containerd | undefined;
  const stop = new AbortController();
  const outcomes: ExecutorOutcome[] = [];
  let executorDone: Promise<void> = Promise.resolve();

  const crrGet = (name: string) => rest.find<Crr>(resources.containerRecreateRequests, { namespace: NS, name });
  async function waitCrr(name: string, ok: (c: Crr) => boolean, timeoutMs = 90_000): Promise<Crr> {
    const deadline = Date.now() + timeoutMs;
    let last: Crr | undefined;
    for (;;) {
      last = await crrGet(name);
      if (last && ok(last)) return last;
      if (Date.now() > deadline) throw new Error(`CRR ${name}: condition not met within ${timeoutMs} ms; last: ${JSON.stringify(last?.status)} ${JSON.stringify(last?.metadata?.annotations)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const createCrr = (name: string, pod: string, containers: string[], strategy: ContainerRecreateRequestStrategy = {}, extra: object = {}) =>
    rest.create<Crr>(resources.containerRecreateRequests, {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: { namespace: NS, name },
      spec: { podName: pod, containers: containers.map((c) => ({ name: c })), strategy, ...extra },
    } as Crr);
  const podStatus = async (pod: string) => (await rest.get<KubernetesObject & { status: any }>(resources.pods, { namespace: NS, name: pod })).status;
  const criStatus = (id: string) => cri.runtime.containerStatus(id);
  const pod = (name: string, containers: StandinContainer[], opts: { readinessGate?: boolean; grace?: number } = {}) =>
    standin.createPod({ namespace: NS, name, containers, readinessGate: opts.readinessGate, terminationGracePeriodSeconds: opts.grace ?? 10 });

  before(async () => {
    if (typeof s === 'string') return;
    env = await startRuntimeEnv();
    const image = await env.pushTestImage({ name: 'kruise-ts/crr-app', tag: 'v1', cmd: APP });
    cri = connectCri({ endpoint: env.containerd.socket, defaultTimeoutMs: 10_000 });
    await cri.images.pullImage({ image });
    kubelet = new KubeletCri(env.containerd.socket, `${env.containerd.dir}/logs`);
    kube = makeKube({ kubeconfig: process.env.KUBECONFIG });
    rest = makeRest(kube.kc);
    await rest.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } as KubernetesObject);
    standin = new CriNodeStandin({ rest, kubelet, cri: cri.runtime, nodeName: NODE, image });
    await standin.start();
    const log = pino({ level: 'debug' }, destination({ dest: join(s.logDir, 'crr-daemon.log'), sync: true }));
    const exec = startContainerRecreateExecutor({
      ...restExecutorPorts({ rest, informers: informerFactory({ rest, signal: stop.signal, log }), nodeName: NODE, log }),
      nodeName: NODE, runtimes: new Map([['containerd', cri.runtime]]), log, signal: stop.signal, onOutcome: (o) => outcomes.push(o),
    });
    executorDone = exec.done;
    await exec.synced;
  });

  after(async () => {
    stop.abort();
    await executorDone;
    await standin?.stop({ removeNode: true }).catch(() => undefined);
    kubelet?.close();
    cri?.close();
    await restarted?.stop();
    await env?.stop();
    if (rest) await rest.delete(resources.namespaces, { name: NS }).catch(() => undefined);
  });

  it('one container: stopped once, recreated by kubelet with a new ID, Succeeded, Completed, active label dropped', async () => {
    const { ids } = await pod('single', [{ name: 'app', command: APP }]);
    await createCrr('single', 'single', ['app']);
    const crr = await waitCrr('single', (c) => c.status?.phase === 'Completed' && c.metadata?.labels?.['crr.apps.kruise.io/active'] === undefined);
    assert.equal(crr.status?.message, '');
    assert.deepEqual(crr.status?.containerRecreateStates, [{ name: 'app', phase: 'Succeeded', isKilled: true }]);
    assert.equal(crr.spec?.containers[0]?.statusContext?.containerID, `containerd://${ids.app}`, 'the webhook recorded the old container');
    assert.equal((await criStatus(ids.app!)).state, 'exited');
    const history = standin.history(NS, 'single', 'app');
    assert.equal(history.length, 2, 'exactly one recreation');
    const cs = (await podStatus('single')).containerStatuses[0];
    assert.deepEqual([cs.containerID, cs.restartCount], [`containerd://${history[1]}`, 1]);
    const events = await rest.list<KubernetesObject & { reason: string; message: string; source?: { component?: string } }>(resources.events, { namespace: NS, fieldSelector: 'involvedObject.name=single' });
    assert.ok(events.items.some((e) => e.reason === 'Killing' && e.message === 'Stopping container app by ContainerRecreateRequest single' && e.source?.component === 'kruise-daemon-crr'), JSON.stringify(events.items.map((e) => e.message)));
  });

  it('orderedRecreate: the second container is stopped only after the first one is back', async () => {
    const { ids } = await pod('ordered', [{ name: 'a', command: APP }, { name: 'b', command: APP }]);
    await createCrr('ordered', 'ordered', ['a', 'b'], { orderedRecreate: true });
    const crr = await waitCrr('ordered', (c) => c.status?.phase === 'Completed');
    assert.deepEqual(crr.status?.containerRecreateStates, [{ name: 'a', phase: 'Succeeded', isKilled: true }, { name: 'b', phase: 'Succeeded', isKilled: true }]);
    const newA = await criStatus(standin.history(NS, 'ordered', 'a')[1]!);
    const oldB = await criStatus(ids.b!);
    assert.ok(oldB.finishedAtNs > newA.startedAtNs, 'b was stopped before the new a had started');
  });

  it('failurePolicy Fail: a container missing on the node ends the CRR with a clear message and nothing is stopped', async () => {
    const { ids } = await pod('fail', [{ name: 'ghost', command: APP, missing: true }, { name: 'app', command: APP }]);
    await createCrr('fail', 'fail', ['ghost', 'app'], { failurePolicy: 'Fail' });
    const crr = await waitCrr('fail', (c) => c.status?.phase === 'Completed');
    assert.equal(crr.status?.message, 'failed to recreate container ghost: not found container on Node');
    assert.deepEqual(crr.status?.containerRecreateStates?.map((x) => [x.name, x.phase]), [['ghost', 'Failed'], ['app', 'Pending']]);
    assert.equal((await criStatus(ids.app!)).state, 'running');
  });

  it('failurePolicy Ignore: the missing container fails, the other is recreated, the CRR completes', async () => {
    const { ids } = await pod('ignore', [{ name: 'ghost', command: APP, missing: true }, { name: 'app', command: APP }]);
    await createCrr('ignore', 'ignore', ['ghost', 'app'], { failurePolicy: 'Ignore' });
    const crr = await waitCrr('ignore', (c) => c.status?.phase === 'Completed');
    assert.deepEqual(crr.status?.containerRecreateStates, [
      { name: 'ghost', phase: 'Failed', message: 'not found container on Node' }, { name: 'app', phase: 'Succeeded', isKilled: true }]);
    assert.equal((await criStatus(ids.app!)).state, 'exited');
  });

  it('preStop: the hook runs in the container (through ExecSync) before it is stopped', async () => {
    const { uid } = await pod('prestop', [{ name: 'app', command: APP, preStop: ['sh', '-c', 'echo prestop-ran > /tmp/prestop'] }]);
    await createCrr('prestop', 'prestop', ['app']);
    const crr = await waitCrr('prestop', (c) => c.status?.phase === 'Completed');
    assert.deepEqual(crr.spec?.containers[0]?.preStop, { exec: { command: ['sh', '-c', 'echo prestop-ran > /tmp/prestop'] } }, 'the webhook copied the hook');
    // The container's TERM trap prints what the hook wrote, so the hook ran before SIGTERM, in that container.
    const log = containerLog(env, NS, 'prestop', uid, 'app', 0);
    assert.match(log, / stdout F prestop-ran$/m);
  });

  it('a pod deleted while its CRR waits ends the CRR with "pod has gone"', async () => {
    const { ids } = await pod('gone', [{ name: 'app', command: APP }]);
    await createCrr('gone', 'gone', ['app'], { unreadyGracePeriodSeconds: 600 });
    await waitCrr('gone', (c) => !!c.metadata?.annotations?.['crr.apps.kruise.io/unready-acquired']);
    standin.forget(NS, 'gone');
    // No kubelet confirms a graceful deletion, so force it as `kubectl delete --force --grace-period=0` would.
    await kube.core.deleteNamespacedPod({ namespace: NS, name: 'gone', gracePeriodSeconds: 0 });
    while (await rest.find(resources.pods, { namespace: NS, name: 'gone' })) await new Promise((r) => setTimeout(r, 200));
    const crr = await waitCrr('gone', (c) => c.status?.phase === 'Completed');
    assert.equal(crr.status?.message, 'pod has gone');
    assert.equal((await criStatus(ids.app!)).state, 'running', 'nothing was stopped');
  });

  it('unreadyGracePeriodSeconds with the KruisePodReady gate: pod held not-ready, stop only after the grace, readiness restored', async () => {
    const { ids } = await pod('unready', [{ name: 'app', command: APP }], { readinessGate: true });
    await createCrr('unready', 'unready', ['app'], { unreadyGracePeriodSeconds: 2 });
    const held = await waitCrr('unready', (c) => !!c.metadata?.annotations?.['crr.apps.kruise.io/unready-acquired']);
    assert.deepEqual(held.metadata?.finalizers, ['crr.apps.kruise.io/unready-acquired']);
    const crr = await waitCrr('unready', (c) => c.status?.phase === 'Completed' && !(c.metadata?.finalizers ?? []).length);
    assert.deepEqual(crr.status?.containerRecreateStates, [{ name: 'app', phase: 'Succeeded', isKilled: true }]);
    const stamp = Date.parse(held.metadata!.annotations!['crr.apps.kruise.io/unready-acquired']!);
    const stoppedMs = Number((await criStatus(ids.app!)).finishedAtNs / 1_000_000n);
    assert.ok(stoppedMs >= stamp + 2_000, `stopped at ${new Date(stoppedMs).toISOString()}, grace ended ${new Date(stamp + 2_000).toISOString()}`);
    const status = await waitPod(rest, 'unready', (st) => cond(st, 'Ready')?.status === 'True');
    assert.deepEqual([cond(status, 'KruisePodReady')?.status, cond(status, 'KruisePodReady')?.message], ['True', '[]']);
  });

  it('activeDeadlineSeconds: the manager ends a CRR that is still waiting, and releases the pod', async () => {
    const { ids } = await pod('deadline', [{ name: 'app', command: APP }], { readinessGate: true });
    await createCrr('deadline', 'deadline', ['app'], { unreadyGracePeriodSeconds: 600 }, { activeDeadlineSeconds: 3 });
    await waitPod(rest, 'deadline', (st) => cond(st, 'Ready')?.status === 'False');
    const crr = await waitCrr('deadline', (c) => c.status?.phase === 'Completed' && !(c.metadata?.finalizers ?? []).length);
    assert.equal(crr.status?.message, 'recreating has exceeded the activeDeadlineSeconds');
    assert.equal((await criStatus(ids.app!)).state, 'running', 'nothing was stopped');
    const st = await waitPod(rest, 'deadline', (x) => cond(x, 'Ready')?.status === 'True');
    assert.equal(cond(st, 'KruisePodReady')?.status, 'True');
  });

  it('ttlSecondsAfterFinished: the finished CRR is deleted', async () => {
    await pod('ttl', [{ name: 'app', command: APP }]);
    await createCrr('ttl', 'ttl', ['app'], {}, { ttlSecondsAfterFinished: 2 });
    await waitCrr('ttl', (c) => c.status?.phase === 'Completed');
    const deadline = Date.now() + 60_000;
    while (await crrGet('ttl')) {
      if (Date.now() > deadline) assert.fail('CRR ttl still exists 60 s after completion');
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  it('containerd restarted mid-way: the executor reconnects and finishes the CRR', async () => {
    const { ids } = await pod('restart', [{ name: 'app', command: APP }]);
    await createCrr('restart', 'restart', ['app'], { unreadyGracePeriodSeconds: 3 });
    await waitCrr('restart', (c) => !!c.metadata?.annotations?.['crr.apps.kruise.io/unready-acquired']);
    await env.containerd.daemon.stop();
    const downAt = Date.now();
    await new Promise((r) => setTimeout(r, 4_000));
    restarted = await startContainerd({ dir: env.containerd.dir, registry: env.registry });
    const crr = await waitCrr('restart', (c) => c.status?.phase === 'Completed', 120_000);
    assert.deepEqual(crr.status?.containerRecreateStates, [{ name: 'app', phase: 'Succeeded', isKilled: true }]);
    const stoppedMs = Number((await criStatus(ids.app!)).finishedAtNs / 1_000_000n);
    assert.ok(stoppedMs > downAt, 'the container was stopped after containerd came back');
    assert.equal(standin.history(NS, 'restart', 'app').length, 2);
  });

  it('the executor reported every kill and completion it did', () => {
    const kills = outcomes.filter((o) => o.kind === 'kill');
    assert.ok(kills.every((k) => k.kind === 'kill' && k.ok), JSON.stringify(kills));
    assert.ok(outcomes.some((o) => o.kind === 'complete' && o.crr === `${NS}/single` && o.result === 'succeeded'));
  });
});

type PodStatus = { conditions?: { type: string; status?: string; message?: string }[] };
const cond = (st: PodStatus, type: string) => st.conditions?.find((c) => c.type === type);

async function waitPod(rest: KubeRest, name: string, ok: (st: PodStatus) => boolean, timeoutMs = 60_000): Promise<PodStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = await rest.get<KubernetesObject & { status: PodStatus }>(resources.pods, { namespace: NS, name });
    if (ok(p.status)) return p.status;
    if (Date.now() > deadline) throw new Error(`pod ${name}: condition not met; conditions ${JSON.stringify(p.status.conditions)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A container's CRI log (kubelet's layout: <logDirectory>/<container>/<attempt>.log). */
function containerLog(env: RuntimeEnv, ns: string, pod: string, uid: string, container: string, attempt: number): string {
  const dir = join(env.containerd.dir, 'logs', `${ns}_${pod}_${uid}`, container);
  const file = readdirSync(dir).find((f) => f === `${attempt}.log`);
  return file ? readFileSync(join(dir, file), 'utf8') : '';
}
