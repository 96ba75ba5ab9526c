// The PodProbeMarker and NodePodProbe controllers together over an in-memory apiserver, the daemon played by writing
// NodePodProbe status: one NodePodProbe per Ready node, probes merged into it, results onto the pod, clean-up on
// delete, and objects as OpenKruise v1.9.0 writes them taken over without a write (spec §4-§5).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { NodePodProbe, PodProbe } from '../../shared/api/node-pod-probe.js';
import type { PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { nodePodProbeController } from '../nodepodprobe/controller.js';
import { podProbeMarkerController } from './controller.js';

const COST = 'controller.kubernetes.io/pod-deletion-cost';
const node = (name: string, extra: Partial<V1Node['metadata']> = {}, ready = 'True'): V1Node =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name, ...extra }, status: { conditions: [{ type: 'Ready', status: ready }] } });
const pod = (name: string, o: { node?: string; ip?: string; initialized?: boolean; labels?: Record<string, string> } = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'sp1', labels: o.labels ?? { app: 'test' } },
  spec: { nodeName: o.node ?? 'node-1', containers: [{ name: 'main', ports: [{ name: 'main-port', containerPort: 8080 }] }] },
  status: { phase: 'Running', podIP: o.ip ?? '10.0.0.1', conditions: [{ type: 'Initialized', status: o.initialized === false ? 'False' : 'True' }] },
});
const ppm = (name = 'ppm-1'): PodProbeMarker => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name, namespace: 'sp1', generation: 1 },
  spec: {
    selector: { matchLabels: { app: 'test' } },
    probes: [
      { name: 'healthy', containerName: 'main', probe: { exec: { command: ['/bin/sh', '-c', '/healthy.sh'] } }, podConditionType: 'game.kruise.io/healthy',
        markerPolicy: [{ state: 'Succeeded', labels: { 'server-healthy': 'true' }, annotations: { [COST]: '10' } }, { state: 'Failed', labels: { 'server-healthy': 'false' }, annotations: { [COST]: '-10' } }] },
      { name: 'tcp', containerName: 'main', probe: { tcpSocket: { port: 'main-port' } }, podConditionType: 'game.kruise.io/tcp' },
    ],
  },
});

function world() {
  const cluster = new FakeCluster();
  const { deps, ctx, events } = fakeDeps(cluster);
  const ppmQueue = new RecordingQueue();
  const nppQueue = new RecordingQueue();
  const nppReconcile = nodePodProbeController.setup(deps, nppQueue);
  const ppmReconcile = podProbeMarkerController.setup(deps, ppmQueue);
  const run = async () => {
    for (let i = 0; i < 20 && (ppmQueue.pending.size || nppQueue.pending.size); i++) {
      await nppQueue.drain((k) => nppReconcile(k, ctx));
      await ppmQueue.drain((k) => ppmReconcile(k, ctx));
    }
  };
  const npp = (n = 'node-1') => cluster.get<NodePodProbe>(resources.nodePodProbes, n);
  const getPod = (n: string) => cluster.get<Pod>(resources.pods, n, 'sp1')!;
  const getPpm = (n = 'ppm-1') => cluster.get<PodProbeMarker>(resources.podProbeMarkers, n, 'sp1');
  const writes = () => cluster.calls.filter((c) => c.method !== 'GET');
  const daemon = async (states: { name: string; state: string; message?: string }[], podName = 'pod-1') => {
    const cur = npp()!;
    const uid = getPod(podName).metadata!.uid!;
    const probeStates = states.map((s) => ({ ...s, lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z' }));
    await cluster.rest.replace(resources.nodePodProbes, { ...cur, status: { podProbeStatuses: [{ name: podName, namespace: 'sp1', uid, probeStates }] } } as NodePodProbe, { subresource: 'status' });
  };
  return { cluster, run, npp, getPod, getPpm, writes, daemon, events, nppQueue, ppmQueue };
}

const probesOf = (e: PodProbe | undefined) => e?.probes?.map((p) => [p.name, p.containerName, JSON.stringify(p.probe)]);

test('every Ready non-virtual node gets an empty NodePodProbe; a NotReady node on the update that makes it Ready (§5.1, §5.2)', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('node-1'));
  assert.deepEqual([...w.nppQueue.pending], ['node-1'], 'Node Create with Ready=True and no NodePodProbe: 1 request queued');
  w.cluster.seed(resources.nodes, node('vk', { labels: { type: 'virtual-kubelet' } }));
  w.cluster.seed(resources.nodes, node('node-2', {}, 'False'));
  await w.run();
  assert.deepEqual(w.npp()?.spec, {});
  assert.equal(w.npp('vk'), undefined);
  assert.equal(w.npp('node-2'), undefined);
  await w.cluster.rest.replace(resources.nodes, node('node-2'));
  await w.run();
  assert.ok(w.npp('node-2'));
});

test('a PPM\'s probes land in the node\'s NodePodProbe (named port resolved), with finalizer and status; results reach the pod and flip', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('node-1'));
  await w.run();
  w.cluster.seed(resources.pods, pod('pod-1'));
  w.cluster.seed(resources.pods, pod('pod-2', { initialized: false }));
  w.cluster.seed(resources.pods, pod('other', { labels: { app: 'else' } }));
  w.cluster.seed(resources.podProbeMarkers, ppm());
  await w.run();
  const entries = w.npp()!.spec!.podProbes!;
  assert.deepEqual(entries.map((e) => [e.name, e.IP]), [['pod-1', '10.0.0.1']]);
  assert.deepEqual(probesOf(entries[0]), [
    ['ppm-1#healthy', 'main', '{"exec":{"command":["/bin/sh","-c","/healthy.sh"]}}'],
    ['ppm-1#tcp', 'main', '{"tcpSocket":{"port":8080}}'],
  ]);
  assert.deepEqual(w.getPpm()!.metadata!.finalizers, ['kruise.io/node-pod-probe-cleanup']);
  assert.deepEqual(w.getPpm()!.status, { observedGeneration: 1, matchedPods: 1 });

  // pod-2 becomes Initialized: its update wakes the PPM.
  const p2 = w.getPod('pod-2');
  p2.status!.conditions = [{ type: 'Initialized', status: 'True' }];
  await w.cluster.rest.replace(resources.pods, p2);
  await w.run();
  assert.deepEqual(w.npp()!.spec!.podProbes!.map((e) => e.name), ['pod-1', 'pod-2']);
  assert.equal(w.getPpm()!.status!.matchedPods, 2);

  await w.daemon([{ name: 'ppm-1#healthy', state: 'Succeeded', message: 'ok' }, { name: 'ppm-1#tcp', state: 'Succeeded' }]);
  await w.run();
  let p1 = w.getPod('pod-1');
  assert.deepEqual(p1.status!.conditions!.map((c) => [c.type, c.status, c.message]), [['Initialized', 'True', undefined], ['game.kruise.io/healthy', 'True', 'ok'], ['game.kruise.io/tcp', 'True', undefined]]);
  assert.deepEqual([p1.metadata!.labels!['server-healthy'], p1.metadata!.annotations?.[COST]], ['true', '10']);

  await w.daemon([{ name: 'ppm-1#healthy', state: 'Failed', message: 'exit 1' }, { name: 'ppm-1#tcp', state: 'Failed', message: 'dial tcp 10.0.0.1:8080: connect: connection refused' }]);
  await w.run();
  p1 = w.getPod('pod-1');
  assert.deepEqual(p1.status!.conditions!.slice(1).map((c) => [c.type, c.status]), [['game.kruise.io/healthy', 'False'], ['game.kruise.io/tcp', 'False']]);
  assert.deepEqual([p1.metadata!.labels!['server-healthy'], p1.metadata!.annotations?.[COST]], ['false', '-10']);

  await w.daemon([{ name: 'ppm-1#healthy', state: 'Unknown' }]);
  await w.run();
  p1 = w.getPod('pod-1');
  assert.deepEqual([p1.metadata!.labels!['server-healthy'], p1.metadata!.annotations?.[COST]], [undefined, undefined]);

  // The same status again writes nothing.
  const before = w.writes().length;
  await w.daemon([{ name: 'ppm-1#healthy', state: 'Unknown' }]);
  await w.run();
  assert.deepEqual(w.writes().slice(before + 1), []);
  assert.deepEqual(w.events, [], 'the manager side records no events (the daemon does)');
});

test('a PPM edit replaces its probe; a removed probe and a pod that stops matching lose theirs (§11 quirk 3 fixed)', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('node-1'));
  await w.run();
  w.cluster.seed(resources.pods, pod('pod-1'));
  w.cluster.seed(resources.podProbeMarkers, ppm());
  await w.run();
  const edited = w.getPpm()!;
  edited.spec!.probes = [{ ...edited.spec!.probes![0]!, probe: { exec: { command: ['/bin/true'] } } }];
  await w.cluster.rest.replace(resources.podProbeMarkers, edited);
  await w.run();
  assert.deepEqual(probesOf(w.npp()!.spec!.podProbes![0]), [['ppm-1#healthy', 'main', '{"exec":{"command":["/bin/true"]}}']]);

  const p = w.getPod('pod-1');
  p.metadata!.labels = { app: 'gone' };
  await w.cluster.rest.replace(resources.pods, p);
  await w.cluster.rest.replace(resources.podProbeMarkers, w.getPpm()!);
  await w.run();
  assert.deepEqual(w.npp()!.spec, {});
  assert.equal(w.getPpm()!.status!.matchedPods, undefined);
});

test('deleting the PPM removes its probes (prefix match: xppm-1 keeps its own), then its finalizer; pod marks stay', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('node-1'));
  await w.run();
  w.cluster.seed(resources.pods, pod('pod-1'));
  w.cluster.seed(resources.podProbeMarkers, ppm());
  w.cluster.seed(resources.podProbeMarkers, { ...ppm('xppm-1'), spec: { ...ppm().spec!, probes: [ppm().spec!.probes![1]!] } });
  await w.run();
  await w.daemon([{ name: 'ppm-1#healthy', state: 'Succeeded', message: 'ok' }]);
  await w.run();
  await w.cluster.rest.delete(resources.podProbeMarkers, { name: 'ppm-1', namespace: 'sp1' });
  await w.run();
  assert.equal(w.getPpm(), undefined);
  assert.deepEqual(probesOf(w.npp()!.spec!.podProbes![0])!.map(([n]) => n), ['xppm-1#tcp']);
  assert.equal(w.getPod('pod-1').metadata!.labels!['server-healthy'], 'true');
});

test('a deleted pod, or one replaced under the same name, leaves the NodePodProbe; a deleted node takes its NodePodProbe (§5.1, §5.2)', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('node-1'));
  await w.run();
  w.cluster.seed(resources.pods, pod('pod-1'));
  w.cluster.seed(resources.pods, pod('pod-2'));
  w.cluster.seed(resources.podProbeMarkers, ppm());
  await w.run();
  assert.equal(w.npp()!.spec!.podProbes!.length, 2);
  await w.cluster.rest.delete(resources.pods, { name: 'pod-1', namespace: 'sp1' });
  await w.cluster.rest.delete(resources.pods, { name: 'pod-2', namespace: 'sp1' });
  w.cluster.seed(resources.pods, { ...pod('pod-2'), metadata: { ...pod('pod-2').metadata, uid: 'new-uid' } });
  w.nppQueue.add('node-1');
  await w.run();
  assert.deepEqual(w.npp()!.spec!.podProbes?.map((e) => e.uid) ?? [], []);
  await w.cluster.rest.delete(resources.nodes, { name: 'node-1' });
  await w.run();
  assert.equal(w.npp(), undefined);
});

test('objects as OpenKruise v1.9.0 writes them are taken over without a write', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('node-1'));
  const p1 = w.cluster.seed(resources.pods, pod('pod-1'));
  const upstreamPpm: PodProbeMarker = { ...ppm(), metadata: { ...ppm().metadata, finalizers: ['kruise.io/node-pod-probe-cleanup'] }, status: { observedGeneration: 1, matchedPods: 1 } };
  w.cluster.seed(resources.podProbeMarkers, upstreamPpm);
  w.cluster.seed<NodePodProbe>(resources.nodePodProbes, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: 'node-1' },
    spec: { podProbes: [{ name: 'pod-1', namespace: 'sp1', uid: p1.metadata!.uid!, IP: '10.0.0.1', probes: [
      { name: 'ppm-1#healthy', containerName: 'main', probe: { exec: { command: ['/bin/sh', '-c', '/healthy.sh'] } } },
      { name: 'ppm-1#tcp', containerName: 'main', probe: { tcpSocket: { port: 8080 } } },
    ] }] },
    status: { podProbeStatuses: [{ name: 'pod-1', namespace: 'sp1', uid: p1.metadata!.uid!, probeStates: [{ name: 'ppm-1#tcp', state: 'Succeeded', lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] }] },
  });
  const marked = w.getPod('pod-1');
  marked.status!.conditions!.push({ type: 'game.kruise.io/tcp', status: 'True', lastProbeTime: '2026-01-01T00:00:01Z' as never, lastTransitionTime: '2026-01-01T00:00:00Z' as never });
  await w.cluster.rest.replace(resources.pods, marked);
  const before = w.writes().length;
  w.ppmQueue.add('sp1/ppm-1');
  w.nppQueue.add('node-1');
  await w.run();
  assert.deepEqual(w.writes().slice(before), []);
});

test('a PPM created after its results are in the NodePodProbe status, or edited, reaches the pod at once (beyond upstream)', async () => {
  const w = world();
  w.cluster.seed(resources.nodes, node('node-1'));
  await w.run();
  const p1 = w.cluster.seed(resources.pods, pod('pod-1'));
  const cur = w.npp()!;
  await w.cluster.rest.replace(resources.nodePodProbes, { ...cur, spec: { podProbes: [{ name: 'pod-1', namespace: 'sp1', uid: p1.metadata!.uid!, IP: '10.0.0.1',
    probes: [{ name: 'ppm-1#healthy', containerName: 'main', probe: { exec: { command: ['/bin/sh', '-c', '/healthy.sh'] } } }] }] } } as NodePodProbe);
  await w.daemon([{ name: 'ppm-1#healthy', state: 'Succeeded', message: 'ok' }]);
  await w.run();
  assert.equal(w.getPod('pod-1').status!.conditions!.length, 1, 'no PPM yet: nothing written');
  w.cluster.seed(resources.podProbeMarkers, ppm());
  await w.run();
  assert.equal(w.getPod('pod-1').status!.conditions!.find((c) => c.type === 'game.kruise.io/healthy')?.status, 'True');
  const edited = w.getPpm()!;
  edited.spec!.probes![0]!.markerPolicy![0]!.labels = { 'server-healthy': 'yes' };
  await w.cluster.rest.replace(resources.podProbeMarkers, edited);
  await w.run();
  assert.equal(w.getPod('pod-1').metadata!.labels!['server-healthy'], 'yes');
});
