// Kubernetes versions tested, not claimed: the stack runs the minor CI asked for (KRUISE_TS_K8S; e2e/test-all.sh runs
// the install, these checks and the demo on 1.30 as well as 1.34), and what needs a newer cluster degrades as the
// README says: before 1.33 there is no pods/resize, so a SidecarSet's resources change is reported on the SidecarSet
// (InPlaceResize=False, ResizeUnsupported) and the running pods are neither resized nor restarted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { k8sMinor } from './harness/cluster/k8s-version.js';
import { eventually, getJson, kubectl, kubectlOk, serves, sidecarSetConditions, stack, untilInjected } from './harness/kube.js';

interface Pod {
  metadata: { uid: string };
  status: { phase?: string; containerStatuses?: { name: string; ready: boolean; restartCount: number }[] };
}
interface SidecarSet {
  metadata: { annotations?: Record<string, string> };
  spec: { containers: { name: string; resources?: object }[] };
  status?: { matchedPods?: number };
}

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : false;
const NS = 'e2e-k8s-version';
const SET = 'scs-k8s-version';
const POD = 'version-0';
const servesResize = () => (JSON.parse(kubectlOk(['get', '--raw', '/api/v1'])) as { resources: { name: string }[] }).resources.some((r) => r.name === 'pods/resize');

describe(`the stack's Kubernetes is 1.${k8sMinor()}`, { skip, timeout: 300_000 }, () => {
  it('the apiserver and the real node run the minor asked for', () => {
    const v = JSON.parse(kubectlOk(['get', '--raw', '/version'])) as { gitVersion: string };
    assert.match(v.gitVersion, new RegExp(`^v1\\.${k8sMinor()}\\.\\d+$`));
    if (node) {
      const n = getJson<{ status: { nodeInfo: { kubeletVersion: string } } }>(['node', node.name]);
      assert.equal(n.status.nodeInfo.kubeletVersion, v.gitVersion);
    }
  });

  it('pods/resize is served from 1.33 on (the README\'s in-place sidecar resize needs it)', () => {
    assert.equal(servesResize(), k8sMinor() >= 33);
  });
});

const noResize = typeof s === 'string' ? s : !node ? 'the stack has no real node (KRUISE_TS_REAL_NODE=0)'
  : k8sMinor() >= 33 ? 'this cluster serves pods/resize (e2e/sidecarset-resize.e2e.test.ts resizes)' : false;

describe('without pods/resize, a sidecar resources change degrades as the README says', { skip: noResize, timeout: 600_000 }, () => {
  const v1 = { requests: { cpu: '50m', memory: '32Mi' }, limits: { cpu: '100m', memory: '64Mi' } };
  const pod = () => getJson<Pod>(['pod', POD, '-n', NS]);
  before(async () => {
    assert.ok(typeof s !== 'string' && await serves(s, '/mutate-pod'), 'the manager serves /mutate-pod');
    kubectlOk(['create', 'namespace', NS]);
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: SET },
      spec: { namespace: NS, selector: { matchLabels: { app: 'version-demo' } }, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
        containers: [{ name: 'sidecar', image: 'busybox', command: ['sleep', '999d'], resources: v1 }] },
    }));
    await untilInjected(NS, { app: 'version-demo' }, 'sidecar', 'busybox');
    kubectlOk(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: POD, namespace: NS, labels: { app: 'version-demo' } },
      spec: { nodeName: node!.name, terminationGracePeriodSeconds: 1,
        containers: [{ name: 'app', image: 'busybox', command: ['sleep', '999d'], resources: { requests: { cpu: '10m' } } }] },
    }));
    await eventually('the pod 2/2 Running', () => { const p = pod(); return p.status.phase === 'Running' && p.status.containerStatuses?.every((c) => c.ready); }, 180_000);
  });
  after(() => {
    kubectl(['delete', 'sidecarset', SET, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('InPlaceResize=False (ResizeUnsupported) on the SidecarSet; the pod keeps its UID and is not restarted', async () => {
    const before = pod();
    const current = getJson<SidecarSet>(['sidecarset', SET]);
    current.spec.containers[0]!.resources = { requests: { cpu: '80m', memory: '48Mi' }, limits: { cpu: '150m', memory: '96Mi' } };
    kubectlOk(['replace', '-f', '-'], JSON.stringify(current));
    await eventually('InPlaceResize=False ResizeUnsupported', () => sidecarSetConditions(getJson<SidecarSet>(['sidecarset', SET]))
      .some((c) => c.type === 'InPlaceResize' && c.status === 'False' && c.reason === 'ResizeUnsupported'), 120_000);
    const now = pod();
    assert.equal(now.metadata.uid, before.metadata.uid);
    assert.deepEqual(now.status.containerStatuses?.map((c) => c.restartCount), before.status.containerStatuses?.map((c) => c.restartCount));
  });
});
