// In-place sidecar resources on the real node (kubelet v1.34 + containerd): a SidecarSet's sidecar CPU and memory
// change → kruise-ts resizes the running pods through pods/resize, one per batch (maxUnavailable 1), without a
// restart, and counts them in updatedPods once kubelet reports the new values; a resize the node cannot fit is
// reported on the pod and the SidecarSet and holds the rollout; a change beyond resources is said on the SidecarSet.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { k8sMinor } from './harness/cluster/k8s-version.js';
import { eventually, getJson, kubectl, kubectlOk, serves, sidecarSetConditions, stack, untilInjected } from './harness/kube.js';

interface Resources { requests?: Record<string, string>; limits?: Record<string, string> }
interface Pod {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  spec: { containers: { name: string; resources?: Resources }[] };
  status: { phase?: string; conditions?: { type: string; status: string; reason?: string }[];
    containerStatuses?: { name: string; ready: boolean; restartCount: number; resources?: Resources }[] };
}
interface SidecarSet {
  metadata: { generation: number; annotations: Record<string, string> };
  spec: { containers: { name: string; resources?: Resources; env?: object[] }[] };
  status?: { observedGeneration?: number; matchedPods?: number; updatedPods?: number; readyPods?: number };
}

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : !node ? 'the stack has no real node (KRUISE_TS_REAL_NODE=0)'
  : k8sMinor() < 33 ? 'no pods/resize before Kubernetes 1.33 (e2e/k8s-version.e2e.test.ts checks how it degrades)' : false;
const NS = 'e2e-scs-resize';
const SET = 'scs-resize';
const PODS = ['resize-0', 'resize-1'];
const v1: Resources = { requests: { cpu: '50m', memory: '32Mi' }, limits: { cpu: '100m', memory: '64Mi' } };
const v2: Resources = { requests: { cpu: '80m', memory: '48Mi' }, limits: { cpu: '150m', memory: '96Mi' } };

/** Deep equality whatever the key order (kubectl prints limits before requests). */
const same = (a: unknown, b: unknown) => { try { assert.deepStrictEqual(a, b); return true; } catch { return false; } };
const pod = (name: string) => getJson<Pod>(['pod', name, '-n', NS]);
const sidecarStatus = (p: Pod) => p.status.containerStatuses?.find((c) => c.name === 'sidecar');
const set = () => getJson<SidecarSet>(['sidecarset', SET]);
const podHash = (p: Pod) => (JSON.parse(p.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<string, { hash: string }>)[SET]?.hash;
/** The SidecarSet with its sidecar changed by `f`, written back whole (the containers list has no merge key in a CR). */
function editSidecar(f: (c: SidecarSet['spec']['containers'][number]) => void): number {
  const current = set();
  f(current.spec.containers[0]!);
  return (JSON.parse(kubectlOk(['replace', '-o', 'json', '-f', '-'], JSON.stringify(current))) as SidecarSet).metadata.generation;
}
/** Event reasons about object `name` (a cluster-scoped SidecarSet's events are in `default`). */
const events = (name: string) => kubectlOk(['get', 'events', '-A', '--field-selector', `involvedObject.name=${name}`, '-o', 'jsonpath={.items[*].reason}']).split(/\s+/);
/** Events are recorded asynchronously (and aggregated): wait for one. */
const eventSeen = (name: string, reason: string) => eventually(`event ${reason} about ${name}`, () => events(name).includes(reason), 30_000);

describe('SidecarSet sidecar resources resized in place on the real node', { skip, timeout: 600_000 }, () => {
  before(async () => {
    assert.ok(typeof s !== 'string' && await serves(s, '/mutate-pod'), 'the manager serves /mutate-pod');
    kubectlOk(['create', 'namespace', NS]);
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: SET },
      spec: {
        namespace: NS, selector: { matchLabels: { app: 'resize-demo' } }, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
        containers: [{ name: 'sidecar', image: 'busybox', command: ['sleep', '999d'], resources: v1 }],
      },
    }));
    await untilInjected(NS, { app: 'resize-demo' }, 'sidecar', 'busybox');
    for (const name of PODS) {
      kubectlOk(['create', '-f', '-'], JSON.stringify({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, labels: { app: 'resize-demo' } },
        // Pinned to the real node (nodeName skips its taint); the app's request keeps the pod Burstable throughout.
        spec: { nodeName: node!.name, terminationGracePeriodSeconds: 1,
          containers: [{ name: 'app', image: 'busybox', command: ['sleep', '999d'], resources: { requests: { cpu: '10m' } } }] },
      }));
    }
    await eventually('both pods 2/2 Running and counted', () => {
      const st = set().status;
      return PODS.every((n) => { const p = pod(n); return p.status.phase === 'Running' && p.status.containerStatuses?.every((c) => c.ready); }) &&
        st?.matchedPods === 2 && st.updatedPods === 2 && st.readyPods === 2;
    }, 180_000);
  });
  after(() => {
    kubectl(['delete', 'sidecarset', SET, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('CPU and memory changed in the SidecarSet: both pods resized, same UID, no restart, status shows the new values, updatedPods counts them', async () => {
    const before = new Map(PODS.map((n) => { const p = pod(n); return [n, { uid: p.metadata.uid, restarts: sidecarStatus(p)!.restartCount }]; }));
    assert.deepEqual(sidecarStatus(pod(PODS[0]!))!.resources, v1, 'kubelet reports the injected resources');
    const generation = editSidecar((c) => { c.resources = v2; });
    const done = await eventually('updatedPods 2 at the new generation, with kubelet reporting the new resources', () => {
      const st = set();
      return st.status?.observedGeneration === generation && st.status.updatedPods === 2 && st.status.readyPods === 2 &&
        PODS.every((n) => same(sidecarStatus(pod(n))?.resources, v2)) && st;
    }, 180_000);
    for (const n of PODS) {
      const p = pod(n);
      assert.equal(p.metadata.uid, before.get(n)!.uid, `${n}: same pod`);
      assert.equal(sidecarStatus(p)!.restartCount, before.get(n)!.restarts, `${n}: the sidecar did not restart`);
      assert.deepEqual(p.spec.containers.find((c) => c.name === 'sidecar')!.resources, v2, `${n}: spec`);
      assert.equal(podHash(p), done.metadata.annotations['kruise.io/sidecarset-hash'], `${n}: the SidecarSet's hash recorded`);
      const jsonpath = kubectlOk(['get', 'pod', n, '-n', NS, '-o', 'jsonpath={.status.containerStatuses[?(@.name=="sidecar")].resources}']);
      assert.deepEqual(JSON.parse(jsonpath), v2, `${n}: kubectl get -o jsonpath`);
    }
    await eventSeen(SET, 'SidecarResized'); // one per batch, on the SidecarSet
  });

  it('more CPU than the node has: the resize is reported Infeasible on the pod and the SidecarSet, and the rollout holds', async () => {
    const restarts = new Map(PODS.map((n) => [n, sidecarStatus(pod(n))!.restartCount]));
    editSidecar((c) => { c.resources = { requests: { cpu: '500', memory: '48Mi' }, limits: { cpu: '500', memory: '96Mi' } }; });
    const condition = await eventually('InPlaceResize=False/ResizeInfeasible on the SidecarSet', () =>
      sidecarSetConditions(set()).find((c) => c.type === 'InPlaceResize' && c.reason === 'ResizeInfeasible'), 120_000);
    assert.match(condition.message, /^1 pod\(s\) cannot get the new sidecar resources on their node, the rollout waits for them: /);
    const refused = PODS.filter((n) => pod(n).status.conditions?.some((c) => c.type === 'PodResizePending' && c.reason === 'Infeasible'));
    assert.equal(refused.length, 1, 'maxUnavailable 1: one pod tried, the other waits');
    await eventSeen(refused[0]!, 'SidecarResizeInfeasible');
    await eventSeen(SET, 'ResizeInfeasible');
    assert.match(kubectlOk(['describe', 'sidecarset', SET]), /ResizeInfeasible/);
    const st = set().status!;
    assert.equal(st.updatedPods, 0);
    for (const n of PODS) {
      assert.equal(sidecarStatus(pod(n))!.restartCount, restarts.get(n), `${n}: still running, not restarted`);
      assert.deepEqual(sidecarStatus(pod(n))!.resources, v2, `${n}: kubelet kept the old allocation`);
    }
  });

  it('an env change is not done in place: InPlaceUpdate=False/NewPodsOnly names the field', async () => {
    editSidecar((c) => { c.resources = v2; c.env = [{ name: 'MODE', value: 'two' }]; });
    const condition = await eventually('InPlaceUpdate=False/NewPodsOnly', () =>
      sidecarSetConditions(set()).find((c) => c.type === 'InPlaceUpdate' && c.reason === 'NewPodsOnly'), 60_000);
    assert.match(condition.message, /^2 pod\(s\) keep their sidecars until recreated: env changed, which only new pods get/);
    assert.match(kubectlOk(['describe', 'sidecarset', SET]), /NewPodsOnly/);
    await eventSeen(SET, 'NewPodsOnly');
  });
});
