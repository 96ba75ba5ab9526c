// The daemon's NodePodProbe prober on the real node (kubelet + containerd, kruise-ts installed by Helm with its daemon as
// a pod): a NodePodProbe entry written by hand for a real pod gets its status filled by the daemon — an exec probe run
// in the container through containerd's ExecSync and a tcpSocket probe dialled from the host network to the pod IP —
// first Succeeded, then Failed once the test breaks the container's health file and listener, with the pod events of
// upstream. The manager side (PodProbeMarker → NodePodProbe → pod) is e2e/podprobemarker.e2e.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { ContainerProbeState, NodePodProbe, PodProbe } from '../shared/api/node-pod-probe.js';
import { REAL_NODE_TAINT } from './harness/node/index.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : node ? false : 'the stack has no real node (KRUISE_TS_REAL_NODE=0)';
const NS = 'e2e-nodepodprobe';
const POD = 'probed';
const WAIT = 120_000;

interface Pod { metadata: { uid: string }; status: { phase?: string; podIP?: string } }

const npp = () => getJson<NodePodProbe>(['nodepodprobe', node!.name]);
const statesOf = (uid: string): ContainerProbeState[] => npp().status?.podProbeStatuses?.find((p) => p.uid === uid)?.probeStates ?? [];

/** Read-modify-write of the node's spec (the manager may hold entries of other pods, and may write meanwhile). */
async function editSpec(edit: (podProbes: PodProbe[]) => PodProbe[]): Promise<void> {
  await eventually('NodePodProbe spec written', () => {
    const cur = npp();
    const body = { ...cur, spec: { ...cur.spec, podProbes: edit([...(cur.spec?.podProbes ?? [])]) } };
    return kubectl(['replace', '-f', '-'], JSON.stringify(body)).code === 0;
  }, 30_000);
}

describe('NodePodProbe prober on the real node', { skip, timeout: 300_000 }, () => {
  let uid = '';
  let createdNpp = false;

  before(async () => {
    await eventually('the daemon pod Running on the real node', () => getJson<{ items: { spec: { nodeName?: string }; status: { phase?: string } }[] }>(['pods', '-n', 'kruise-daemon', '-l', 'control-plane=daemon'])
      .items.some((p) => p.spec.nodeName === node!.name && p.status.phase === 'Running'), 240_000);
    kubectlOk(['create', 'namespace', NS]);
    kubectlOk(['create', '-n', NS, '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: POD, labels: { app: 'e2e-nodepodprobe' } },
      spec: {
        nodeName: node!.name, terminationGracePeriodSeconds: 1,
        tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
        containers: [{ name: 'main', image: 'busybox:1.36.0', command: ['sh', '-c', 'echo ok > /tmp/healthy; httpd -f -p 8080 & sleep 3600 & wait'] }],
      },
    }));
    const pod = await eventually('the pod Running with an IP', () => {
      const p = getJson<Pod>(['pod', POD, '-n', NS]);
      return p.status.phase === 'Running' && p.status.podIP ? p : undefined;
    }, WAIT);
    uid = pod.metadata.uid;
    // The manager (NodePodProbe controller) creates one per Ready node; without it, the test does.
    if (kubectl(['get', 'nodepodprobe', node!.name]).code !== 0) {
      createdNpp = kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: node!.name } })).code === 0;
    }
    await editSpec((pps) => [...pps.filter((p) => p.uid !== uid), {
      name: POD, namespace: NS, uid, IP: pod.status.podIP!,
      probes: [
        { name: 'e2e#exec', containerName: 'main', probe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, timeoutSeconds: 2 } },
        { name: 'e2e#tcp', containerName: 'main', probe: { tcpSocket: { port: 8080 }, periodSeconds: 1 } },
      ],
    }]);
  });

  after(async () => {
    if (uid && kubectl(['get', 'nodepodprobe', node!.name]).code === 0) {
      if (createdNpp) kubectl(['delete', 'nodepodprobe', node!.name, '--wait=false']);
      else await editSpec((pps) => pps.filter((p) => p.uid !== uid)).catch(() => {});
    }
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('exec (CRI ExecSync in the container) and tcpSocket (pod IP from the host network) report Succeeded, with events', async () => {
    const states = await eventually('both probes Succeeded', () => {
      const st = statesOf(uid);
      return st.length === 2 && st.every((x) => x.state === 'Succeeded') ? st : undefined;
    }, WAIT);
    const byName = Object.fromEntries(states.map((x) => [x.name, x]));
    assert.equal(byName['e2e#exec'].message, 'ok\n', 'the exec message is the command\'s stdout');
    assert.equal(byName['e2e#tcp'].message, undefined);
    assert.ok(byName['e2e#exec'].lastProbeTime && byName['e2e#exec'].lastTransitionTime);
    const events = await eventually('a KruiseProbeSucceeded event on the pod', () => {
      const evs = getJson<{ items: CoreV1Event[] }>(['events', '-n', NS, '--field-selector', `involvedObject.name=${POD}`]).items
        .filter((e) => e.reason === 'KruiseProbeSucceeded');
      return evs.length ? evs : undefined;
    }, 30_000);
    assert.deepEqual([events[0].type, events[0].source?.component, events[0].source?.host], ['Normal', 'kruise-daemon-podprobe', node!.name]);
  });

  it('once the health file and the listener are gone, both report Failed with the failure as message', async () => {
    kubectlOk(['exec', '-n', NS, POD, '-c', 'main', '--', 'sh', '-c', 'rm /tmp/healthy; kill $(pidof httpd)']);
    const states = await eventually('both probes Failed', () => {
      const st = statesOf(uid);
      return st.length === 2 && st.every((x) => x.state === 'Failed') ? st : undefined;
    }, WAIT);
    const byName = Object.fromEntries(states.map((x) => [x.name, x]));
    assert.match(byName['e2e#exec'].message ?? '', /^cat: can't open '\/tmp\/healthy': No such file or directory\n$/, 'the exec message is stderr');
    assert.match(byName['e2e#tcp'].message ?? '', /^dial tcp [\d.]+:8080: connect: connection refused$/);
    await eventually('a KruiseProbeFailed event on the pod', () => getJson<{ items: CoreV1Event[] }>(['events', '-n', NS, '--field-selector', `involvedObject.name=${POD}`]).items
      .some((e) => e.reason === 'KruiseProbeFailed' && e.type === 'Normal'), 30_000);
  });

  it('an entry removed from the spec has its status pruned by the daemon', async () => {
    await editSpec((pps) => pps.map((p) => (p.uid === uid ? { ...p, probes: p.probes?.filter((x) => x.name === 'e2e#exec') } : p)));
    await eventually('the tcp state pruned', () => {
      const st = statesOf(uid);
      return st.length === 1 && st[0].name === 'e2e#exec';
    }, WAIT);
  });
});
