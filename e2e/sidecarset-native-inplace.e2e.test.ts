// Native sidecars upgraded in place on the real node (kruise-ts extension; OpenKruise v1.9.0 refuses RollingUpdate for
// them): a SidecarSet whose sidecar is an init container with restartPolicy Always changes its image → kruise-ts
// patches spec.initContainers of the running pods, one at a time (maxUnavailable 1, counted from the sidecar's own
// restart: the pod stays Ready), kubelet 1.34 restarts only that container, and updatedPods counts a pod once kubelet
// reports the new image running. Logs each pod's measured sidecar downtime (no timing assertion).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { k8sMinor } from './harness/cluster/k8s-version.js';
import { eventually, getJson, kubectl, kubectlOk, serves, stack } from './harness/kube.js';

interface Status {
  name: string; image: string; imageID: string; ready: boolean; started?: boolean; restartCount: number;
  state?: { running?: { startedAt: string } }; lastState?: { terminated?: { finishedAt: string } };
}
interface Pod {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  spec: { initContainers?: { name: string; image: string }[] };
  status: { phase?: string; conditions?: { type: string; status: string }[]; containerStatuses?: Status[]; initContainerStatuses?: Status[] };
}
interface SidecarSet { metadata: { generation: number }; status?: { observedGeneration?: number; matchedPods?: number; updatedPods?: number; readyPods?: number } }

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : !node ? 'the stack has no real node (KRUISE_TS_REAL_NODE=0)'
  : k8sMinor() < 33 ? 'native sidecars restart in place from Kubernetes 1.33 on' : false;
const NS = 'e2e-scs-native';
const SET = 'scs-native';
const PODS = ['native-0', 'native-1'];

const pod = (name: string) => getJson<Pod>(['pod', name, '-n', NS]);
const native = (p: Pod) => p.status.initContainerStatuses?.find((c) => c.name === 'native');
const app = (p: Pod) => p.status.containerStatuses?.find((c) => c.name === 'app');
const isReady = (p: Pod) => p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const set = () => getJson<SidecarSet>(['sidecarset', SET]);
/** When the controller wrote the pod's update: its `kruise.io/sidecarset-hash` entry's updateTimestamp (seconds). */
const patchedAt = (p: Pod) => Date.parse((JSON.parse(p.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<string, { updateTimestamp: string }>)[SET]!.updateTimestamp);

describe('SidecarSet native sidecar upgraded in place on the real node', { skip, timeout: 600_000 }, () => {
  before(async () => {
    assert.ok(typeof s !== 'string' && await serves(s, '/mutate-pod'), 'the manager serves /mutate-pod');
    kubectlOk(['create', 'namespace', NS]);
    // Accepted with RollingUpdate (OpenKruise: "The initContainer in-place upgrade is not currently supported.").
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: SET },
      spec: {
        namespace: NS, selector: { matchLabels: { app: 'native-demo' } }, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
        initContainers: [{ name: 'native', image: 'busybox:latest', command: ['sleep', '999d'], restartPolicy: 'Always' }],
      },
    }));
    const probe = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'webhook-probe', namespace: NS, labels: { app: 'native-demo' } },
      spec: { containers: [{ name: 'app', image: 'busybox' }] } });
    await eventually('the webhook injects the native sidecar', () => {
      const r = kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], probe);
      return r.code === 0 && (JSON.parse(r.stdout) as Pod).spec.initContainers?.some((c) => c.name === 'native') === true;
    });
    for (const name of PODS) {
      kubectlOk(['create', '-f', '-'], JSON.stringify({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, labels: { app: 'native-demo' } },
        spec: { nodeName: node!.name, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: 'busybox', command: ['sleep', '999d'] }] },
      }));
    }
    await eventually('both pods Running and Ready, counted updated and ready', () => {
      const st = set().status;
      return PODS.every((n) => { const p = pod(n); return isReady(p) && native(p)?.state?.running; }) &&
        st?.matchedPods === 2 && st.updatedPods === 2 && st.readyPods === 2;
    }, 180_000);
  });
  after(() => {
    kubectl(['delete', 'sidecarset', SET, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('the native sidecar\'s image changed: same pods, only the sidecar restarted (once), one pod at a time, updatedPods counts them', async () => {
    const before = new Map(PODS.map((n) => { const p = pod(n); return [n, { uid: p.metadata.uid, appStarted: app(p)!.state!.running!.startedAt }]; }));
    // Polled by the test (its own clock): when each pod was seen patched and when its new sidecar was seen serving,
    // and whether the pod was ever seen not Ready meanwhile.
    const seenPatched = new Map<string, number>();
    const seenUp = new Map<string, number>();
    const notReady = new Set<string>();
    const generation = (JSON.parse(kubectlOk(['patch', 'sidecarset', SET, '--type=json', '-o', 'json', '-p',
      '[{"op":"replace","path":"/spec/initContainers/0/image","value":"busybox:1.35.0"}]'])) as SidecarSet).metadata.generation;
    await eventually('updatedPods 2 at the new generation', () => {
      const now = Date.now();
      for (const n of PODS) {
        const p = pod(n);
        if (!isReady(p)) notReady.add(n);
        if (p.spec.initContainers?.find((c) => c.name === 'native')?.image === 'busybox:1.35.0' && !seenPatched.has(n)) seenPatched.set(n, now);
        const st = native(p);
        if (seenPatched.has(n) && !seenUp.has(n) && st?.image.endsWith('busybox:1.35.0') && st.state?.running && st.started !== false && st.ready) seenUp.set(n, now);
      }
      const status = set().status;
      return status?.observedGeneration === generation && status.updatedPods === 2 && status.readyPods === 2;
    }, 240_000);
    const pods = PODS.map(pod);
    for (const p of pods) {
      const n = p.metadata.name;
      assert.equal(p.metadata.uid, before.get(n)!.uid, `${n}: same pod`);
      assert.equal(native(p)!.restartCount, 1, `${n}: the native sidecar restarted once`);
      assert.match(native(p)!.image, /busybox:1\.35\.0$/, `${n}: on its new image`);
      assert.equal(app(p)!.restartCount, 0, `${n}: the main container did not restart`);
      assert.equal(app(p)!.state?.running?.startedAt, before.get(n)!.appStarted, `${n}: the main container kept running`);
      // From the pod status timestamps (seconds): the controller's patch to the new container started, and the old
      // container's end to the new one's start.
      const started = Date.parse(native(p)!.state!.running!.startedAt);
      const finished = native(p)!.lastState?.terminated?.finishedAt;
      console.log(`# ${n}: native sidecar downtime from the patch to the new container started (pod status timestamps, 1 s resolution): ` +
        `${((started - patchedAt(p)) / 1000).toFixed(0)} s; old container finished to new started: ${finished ? `${((started - Date.parse(finished)) / 1000).toFixed(0)} s` : 'n/a'}; ` +
        `seen by the test's polling (patched to running, started and ready again): ${seenPatched.has(n) && seenUp.has(n) ? `${seenUp.get(n)! - seenPatched.get(n)!} ms` : 'not caught'}; ` +
        `pod seen not Ready meanwhile: ${notReady.has(n)}`);
    }
    // maxUnavailable 1, counted from the sidecar's restart: the second pod was patched once the first one's new
    // sidecar had started (second resolution: not before).
    const [first, second] = [...pods].sort((a, b) => patchedAt(a) - patchedAt(b));
    assert.ok(patchedAt(second!) >= Date.parse(native(first!)!.state!.running!.startedAt),
      `the second pod was patched (${new Date(patchedAt(second!)).toISOString()}) after the first one's sidecar started (${native(first!)!.state!.running!.startedAt})`);
  });
});
