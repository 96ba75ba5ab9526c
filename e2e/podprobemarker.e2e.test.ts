// PodProbeMarker end to end on the real node (kubelet + containerd, kruise-ts installed by Helm: webhook, manager and
// the daemon's prober as a pod): a PodProbeMarker with an exec probe and a tcpSocket probe on a named port reaches the
// node's NodePodProbe, the daemon's results come back onto the pod as conditions, a label and an annotation, they flip
// when the probes start failing, and the PPM's probes go when it is deleted. Objects as OpenKruise v1.9.0 leaves them
// (finalizer set, NodePodProbe entry already written) are taken over. The daemon side alone: e2e/nodepodprobe.e2e.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { NodePodProbe, PodProbe } from '../shared/api/node-pod-probe.js';
import type { PodProbeMarker } from '../shared/api/pod-probe-marker.js';
import { REAL_NODE_TAINT } from './harness/node/index.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : node ? false : 'the stack has no real node (KRUISE_TS_REAL_NODE=0)';
const NS = 'e2e-podprobemarker';
const POD = 'game';
const WAIT = 120_000;
const COST = 'controller.kubernetes.io/pod-deletion-cost';
const FINALIZER = 'kruise.io/node-pod-probe-cleanup';

interface Condition { type: string; status: string; message?: string }
interface Pod { metadata: { uid: string; labels?: Record<string, string>; annotations?: Record<string, string> }; status: { phase?: string; podIP?: string; conditions?: Condition[] } }
interface Node { metadata: { name: string; labels?: Record<string, string> }; status?: { conditions?: Condition[] } }

const pod = () => getJson<Pod>(['pod', POD, '-n', NS]);
const condition = (type: string) => pod().status.conditions?.find((c) => c.type === type);
const npp = (name = node!.name) => getJson<NodePodProbe>(['nodepodprobe', name]);
const entryOf = (uid: string) => npp().spec?.podProbes?.find((p) => p.uid === uid);
const ppm = (name: string) => getJson<PodProbeMarker>(['podprobemarker', name, '-n', NS]);
const events = (reason: string) => getJson<{ items: CoreV1Event[] }>(['events', '-n', NS, '--field-selector', `involvedObject.name=${POD}`]).items.filter((e) => e.reason === reason);

/** What the test looked at, for a failure message. */
const seen = (uid: string) => JSON.stringify({
  entry: entryOf(uid), status: npp().status?.podProbeStatuses?.find((p) => p.uid === uid),
  conditions: pod().status.conditions, labels: pod().metadata.labels,
});

/** eventually(), its timeout error naming the NodePodProbe entry, its status and the pod's conditions and labels. */
async function until(what: string, uid: string, f: () => boolean, timeoutMs = WAIT): Promise<void> {
  try {
    await eventually(what, f, timeoutMs);
  } catch (err) {
    throw new Error(`${(err as Error).message}; saw ${seen(uid)}`);
  }
}

const marker = (name: string, extra: object = {}) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name, namespace: NS, ...extra },
  spec: {
    selector: { matchLabels: { app: 'e2e-ppm' } },
    probes: [
      {
        name: 'healthy', containerName: 'main', podConditionType: `game.kruise.io/${name}-healthy`,
        probe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, timeoutSeconds: 2 },
        markerPolicy: [
          { state: 'Succeeded', labels: { 'server-healthy': 'true' }, annotations: { [COST]: '10' } },
          { state: 'Failed', labels: { 'server-healthy': 'false' }, annotations: { [COST]: '-10' } },
        ],
      },
      { name: 'tcp', containerName: 'main', podConditionType: `game.kruise.io/${name}-tcp`, probe: { tcpSocket: { port: 'http' }, periodSeconds: 1 } },
    ],
  },
});

/** Read-modify-write of the node's spec (the manager writes it too). */
async function editSpec(edit: (podProbes: PodProbe[]) => PodProbe[]): Promise<void> {
  await eventually('NodePodProbe spec written', () => {
    const cur = npp();
    return kubectl(['replace', '-f', '-'], JSON.stringify({ ...cur, spec: { ...cur.spec, podProbes: edit([...(cur.spec?.podProbes ?? [])]) } })).code === 0;
  }, 30_000);
}

describe('PodProbeMarker on the real node', { skip, timeout: 420_000 }, () => {
  let uid = '';
  let ip = '';

  before(async () => {
    await eventually('the daemon pod Running on the real node', () => getJson<{ items: { spec: { nodeName?: string }; status: { phase?: string } }[] }>(['pods', '-n', 'kruise-daemon', '-l', 'control-plane=daemon'])
      .items.some((p) => p.spec.nodeName === node!.name && p.status.phase === 'Running'), 240_000);
    kubectlOk(['create', 'namespace', NS]);
    kubectlOk(['create', '-n', NS, '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: POD, labels: { app: 'e2e-ppm' } },
      spec: {
        nodeName: node!.name, terminationGracePeriodSeconds: 1,
        tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
        containers: [{ name: 'main', image: 'busybox:1.36.0', ports: [{ name: 'http', containerPort: 8080 }],
          command: ['sh', '-c', 'echo ok > /tmp/healthy; httpd -f -p 8080 & sleep 3600 & wait'] }],
      },
    }));
    const p = await eventually('the pod Running with an IP', () => { const x = pod(); return x.status.phase === 'Running' && x.status.podIP ? x : undefined; }, WAIT);
    uid = p.metadata.uid;
    ip = p.status.podIP!;
  });

  after(() => {
    for (const name of ['e2e-ppm', 'e2e-upstream']) kubectl(['delete', 'podprobemarker', name, '-n', NS, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('every Ready node that is not virtual-kubelet has a NodePodProbe named after it', async () => {
    const ready = getJson<{ items: Node[] }>(['nodes']).items
      .filter((n) => n.metadata.labels?.type !== 'virtual-kubelet' && n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
      .map((n) => n.metadata.name);
    assert.ok(ready.includes(node!.name));
    await eventually('a NodePodProbe per Ready node', () => ready.every((n) => kubectl(['get', 'nodepodprobe', n]).code === 0), 60_000);
  });

  it('the webhook refuses an invalid PodProbeMarker with upstream\'s message', () => {
    const bad = marker('e2e-bad');
    bad.spec.probes[0]!.name = 'Ready';
    const r = kubectl(['create', '-f', '-'], JSON.stringify(bad));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.probes: Invalid value: "Ready": probe name can't be Ready/);
  });

  it('exec and tcpSocket probes set the pod\'s conditions, label and annotation from the daemon\'s results', async () => {
    kubectlOk(['create', '-f', '-'], JSON.stringify(marker('e2e-ppm')));
    const entry = await eventually('the pod\'s entry in the node\'s NodePodProbe', () => entryOf(uid), 60_000);
    assert.equal(entry.IP, ip);
    assert.deepEqual(entry.probes?.map((p) => [p.name, p.containerName]), [['e2e-ppm#healthy', 'main'], ['e2e-ppm#tcp', 'main']]);
    assert.deepEqual(entry.probes?.[1]?.probe.tcpSocket, { port: 8080 }, 'the named port is resolved');
    await until('both conditions True', uid, () => condition('game.kruise.io/e2e-ppm-healthy')?.status === 'True' && condition('game.kruise.io/e2e-ppm-tcp')?.status === 'True');
    const p = pod();
    assert.equal(condition('game.kruise.io/e2e-ppm-healthy')?.message, 'ok\n', 'the exec probe\'s stdout');
    assert.equal(p.metadata.labels?.['server-healthy'], 'true');
    assert.equal(p.metadata.annotations?.[COST], '10');
    const m = await eventually('the PPM status', () => { const x = ppm('e2e-ppm'); return x.status?.matchedPods === 1 ? x : undefined; }, 30_000);
    assert.deepEqual(m.metadata?.finalizers, [FINALIZER]);
    assert.equal(m.status?.observedGeneration, m.metadata?.generation);
    const ev = await eventually('a KruiseProbeSucceeded event', () => { const e = events('KruiseProbeSucceeded'); return e.length ? e : undefined; }, 30_000);
    assert.deepEqual([ev[0]!.type, ev[0]!.source?.component], ['Normal', 'kruise-daemon-podprobe']);
  });

  it('flips both conditions, the label and the annotation when the probes start failing', async () => {
    kubectlOk(['exec', '-n', NS, POD, '-c', 'main', '--', 'sh', '-c', 'rm /tmp/healthy; kill $(pidof httpd)']);
    await until('both conditions False', uid, () => condition('game.kruise.io/e2e-ppm-healthy')?.status === 'False' && condition('game.kruise.io/e2e-ppm-tcp')?.status === 'False');
    await eventually('the Failed policy', () => pod().metadata.labels?.['server-healthy'] === 'false' && pod().metadata.annotations?.[COST] === '-10', 30_000);
    assert.match(condition('game.kruise.io/e2e-ppm-tcp')?.message ?? '', /^dial tcp [\d.]+:8080: connect: connection refused$/);
    await eventually('a KruiseProbeFailed event (type Normal, as upstream)', () => events('KruiseProbeFailed').some((e) => e.type === 'Normal'), 30_000);
  });

  it('deleting the PodProbeMarker takes its probes out of the NodePodProbe and releases it; the pod keeps its marks', async () => {
    kubectlOk(['delete', 'podprobemarker', 'e2e-ppm', '-n', NS, '--wait=false']);
    await eventually('the PPM gone', () => kubectl(['get', 'podprobemarker', 'e2e-ppm', '-n', NS]).code !== 0, 60_000);
    await eventually('the pod\'s entry gone', () => entryOf(uid) === undefined, 30_000);
    assert.equal(pod().metadata.labels?.['server-healthy'], 'false');
  });

  it('a PodProbeMarker and NodePodProbe entry as OpenKruise v1.9.0 left them are taken over without duplicates', async () => {
    kubectlOk(['exec', '-n', NS, POD, '-c', 'main', '--', 'sh', '-c', 'echo ok > /tmp/healthy; httpd -p 8080']);
    const upstream = marker('e2e-upstream', { finalizers: [FINALIZER] });
    const probes = upstream.spec.probes.map((p) => ({ name: `e2e-upstream#${p.name}`, containerName: p.containerName,
      probe: p.probe.tcpSocket ? { ...p.probe, tcpSocket: { port: 8080 } } : p.probe }));
    await editSpec((pps) => [...pps.filter((p) => p.uid !== uid), { name: POD, namespace: NS, uid, IP: ip, probes }]);
    kubectlOk(['create', '-f', '-'], JSON.stringify(upstream));
    await until('both conditions True', uid, () => condition('game.kruise.io/e2e-upstream-healthy')?.status === 'True' && condition('game.kruise.io/e2e-upstream-tcp')?.status === 'True');
    await eventually('the PPM status', () => ppm('e2e-upstream').status?.matchedPods === 1, 30_000);
    assert.deepEqual(entryOf(uid)?.probes, probes, 'the entry is left as upstream wrote it');
    assert.deepEqual(ppm('e2e-upstream').metadata?.finalizers, [FINALIZER]);
    assert.equal(pod().metadata.labels?.['server-healthy'], 'true');
    kubectlOk(['delete', 'podprobemarker', 'e2e-upstream', '-n', NS, '--wait=false']);
    await eventually('the pod\'s entry gone', () => entryOf(uid) === undefined && kubectl(['get', 'podprobemarker', 'e2e-upstream', '-n', NS]).code !== 0, 60_000);
  });
});
