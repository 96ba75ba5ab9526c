// The prober as the daemon wires it (startPodProbe with a DaemonContext of fakes): the node's NodePodProbe starts
// workers, their exec results reach the status through a status PUT and the pod through an event, our own status
// write does not re-sync the spec, and the workers stop with the daemon.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CoreV1Event, KubernetesObject } from '@kubernetes/client-node';
import pino from 'pino';
import type { NodePodProbe } from '../../shared/api/node-pod-probe.js';
import { FakeClock } from '../../shared/clock.js';
import type { ChangeVerb } from '../../shared/kube/informer.js';
import type { InformerFactory } from '../../shared/kube/informer-factory.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { DaemonContext } from '../context.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { createDaemonMetrics } from '../metrics.js';
import { PODPROBE_COMPONENT, startPodProbe } from './controller.js';
import { demoNodePodProbe } from './testing.js';
import { POD_UID_LABEL } from './worker.js';

class OneObjectCache {
  private obj: NodePodProbe | undefined;
  private readonly listeners: ((o: NodePodProbe, verb: ChangeVerb) => void)[] = [];
  synced = Promise.resolve();
  isSynced = () => true;
  list = () => (this.obj ? [this.obj] : []);
  get = (key: string) => (this.obj?.metadata?.name === key ? this.obj : undefined);
  onChange(cb: (o: NodePodProbe, verb: ChangeVerb) => void): void { this.listeners.push(cb); }
  set(o: NodePodProbe): void {
    const verb = this.obj ? 'update' : 'add';
    this.obj = structuredClone(o);
    for (const l of this.listeners) l(this.obj, verb);
  }
}

function setup() {
  const clock = new FakeClock();
  const cache = new OneObjectCache();
  const runtime = new FakeRuntime();
  const puts: NodePodProbe[] = [];
  const events: CoreV1Event[] = [];
  let stored = demoNodePodProbe();
  const rest = {
    async replace(_r: unknown, obj: KubernetesObject) {
      puts.push(structuredClone(obj) as NodePodProbe);
      stored = { ...stored, status: (obj as NodePodProbe).status, metadata: { ...stored.metadata, resourceVersion: String(Number(stored.metadata!.resourceVersion) + 1) } };
      return structuredClone(stored);
    },
    async find() { return structuredClone(stored); },
    async create(_r: unknown, obj: KubernetesObject) { events.push(obj as CoreV1Event); return obj; },
  } as unknown as KubeRest;
  const informers = { cache: () => cache, notSynced: () => null, synced: async () => {} } as unknown as InformerFactory;
  const stop = new AbortController();
  const metrics = createDaemonMetrics();
  const ctx = {
    config: { nodeName: 'node-1' }, log: pino({ level: 'silent' }), rest, informers,
    cri: { runtime, images: runtime, close: () => {} }, runtimeName: 'containerd', metrics, signal: stop.signal,
  } as unknown as DaemonContext;
  for (let i = 0; i < 3; i++) runtime.addContainer({ id: `c-${i}`, name: 'main', labels: { [POD_UID_LABEL]: `pod-${i}-uid` }, startedAtNs: 1n });
  runtime.execHandler = (id) => ({ stdout: Buffer.from(`ok ${id}`), stderr: Buffer.alloc(0), exitCode: 0 });
  const controller = startPodProbe(ctx, { clock, random: () => 0 });
  return { clock, cache, runtime, puts, events, stop, controller, metrics, stored: () => stored, apply: (o: NodePodProbe) => { stored = structuredClone(o); cache.set(o); } };
}

test('the node\'s NodePodProbe runs its probes; results reach the status and the pods; the daemon stops them', async () => {
  const t = setup();
  const npp = demoNodePodProbe();
  npp.spec!.podProbes = npp.spec!.podProbes!.slice(0, 2);
  t.apply(npp);
  await t.clock.advance(0);
  assert.equal((await t.metrics.registry.getSingleMetric('kruise_daemon_probe_workers')!.get()).values[0].value, 2);
  // initialDelaySeconds 10 of the demo probe: nothing is probed before, the first result comes at the next tick after.
  await t.clock.advance(20_000);
  assert.deepEqual(new Set(t.runtime.callsOf('execSync').map((c) => c[0])), new Set(['c-0', 'c-1']));
  const last = t.puts.at(-1)!;
  assert.deepEqual(last.status!.podProbeStatuses!.map((p) => [p.name, p.probeStates!.map((s) => `${s.name}=${s.state}:${s.message}`)]),
    [['pod-0', ['ppm-1#healthy=Succeeded:ok c-0']], ['pod-1', ['ppm-1#healthy=Succeeded:ok c-1']]]);
  const succeeded = t.events.filter((e) => e.reason === 'KruiseProbeSucceeded');
  assert.deepEqual(succeeded.map((e) => [e.involvedObject.name, e.source?.component, e.source?.host, e.type]).sort(),
    [['pod-0', PODPROBE_COMPONENT, 'node-1', 'Normal'], ['pod-1', PODPROBE_COMPONENT, 'node-1', 'Normal']]);

  // Our own status write comes back through the informer: same spec, no re-sync, no new write.
  const puts = t.puts.length;
  const execs = t.runtime.callsOf('execSync').length;
  t.cache.set(t.stored());
  await t.clock.advance(0);
  assert.equal(t.puts.length, puts);

  // A pod removed from the spec: its worker stops and its state is pruned from the status.
  const fewer = structuredClone(t.stored());
  fewer.spec!.podProbes = fewer.spec!.podProbes!.slice(1);
  t.apply(fewer);
  await t.clock.advance(10_000);
  assert.deepEqual(t.puts.at(-1)!.status!.podProbeStatuses!.map((p) => p.name), ['pod-1']);
  assert.ok(t.runtime.callsOf('execSync').slice(execs).every((c) => c[0] === 'c-1'));

  t.stop.abort();
  await t.controller.done;
  const after = t.runtime.callsOf('execSync').length;
  await t.clock.advance(30_000);
  assert.equal(t.runtime.callsOf('execSync').length, after, 'no probe after the daemon stopped');
});
