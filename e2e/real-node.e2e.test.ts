// The seed's SidecarSet demo on the harness's real node (kubelet v1.34 + containerd + runc + CNI bridge), not
// on kwok: test-pod (examples 01 + 02) and the 3-replica nginx Deployment (05) really run, with the sidecar the
// running kruise-ts webhook injected, and the nginx stand-ins answer HTTP on their pod IPs. The pods are pinned
// to the real node (nodeName, or its label plus a toleration of its taint) in a namespace of their own, so the
// kwok-scheduled copies other tests make in `default` are untouched.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { load } from 'js-yaml';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './harness/node/index.js';
import { podLogsOnNode } from './harness/node/diagnostics.js';
import { eventually, getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';
import { waitFor } from './harness/runtime/process.js';

interface ContainerStatus { name: string; ready: boolean; image: string; state: { running?: object } }
interface Pod {
  metadata: { name: string };
  spec: { nodeName?: string; containers: { name: string }[] };
  status: { phase?: string; podIP?: string; containerStatuses?: ContainerStatus[] };
}
interface Node {
  metadata: { labels: Record<string, string> };
  spec: { taints?: { key: string; value?: string; effect: string }[] };
  status: { nodeInfo: { kubeletVersion: string; containerRuntimeVersion: string } };
}

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : node ? false : 'the stack has no real node (KRUISE_TS_REAL_NODE=0)';
const NS = 'real-node';
const example = (f: string) => load(readFileSync(join(import.meta.dirname, 'cluster/examples', f), 'utf8')) as Record<string, any>;

const allRunning = (p: Pod) => p.status.phase === 'Running' && (p.status.containerStatuses ?? []).length === p.spec.containers.length &&
  (p.status.containerStatuses ?? []).every((c) => c.ready && c.state.running);

describe('the real node', { skip, timeout: 300_000 }, () => {
  const name = node?.name ?? '';

  before(async () => {
    kubectlOk(['apply', '-f', join(import.meta.dirname, 'cluster/examples/01-sidecarset-demo.yaml')]);
    kubectlOk(['create', 'namespace', NS]);
    await untilInjected(NS, { app: 'nginx' }, 'sidecar1', 'busybox');
  });
  after(() => {
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('is Ready as a kubelet v1.34.4 node on containerd, labelled and tainted so only pinned pods land on it', () => {
    const n = getJson<Node>(['node', name]);
    assert.equal(n.status.nodeInfo.kubeletVersion, 'v1.34.4');
    assert.match(n.status.nodeInfo.containerRuntimeVersion, /^containerd:\/\/1\./);
    assert.equal(n.metadata.labels[REAL_NODE_LABEL], 'true');
    assert.ok(n.spec.taints?.some((t) => t.key === REAL_NODE_TAINT.key && t.effect === REAL_NODE_TAINT.effect), JSON.stringify(n.spec.taints));
  });

  it('runs test-pod 2/2 with the injected busybox sidecar, and the nginx stand-in serves inside the pod', async (t) => {
    if (typeof s === 'string' || !(await serves(s, '/mutate-pod'))) return t.skip('the manager does not serve /mutate-pod yet');
    const pod = example('02-test-pod.yaml');
    pod.metadata.namespace = NS;
    pod.spec.nodeName = name;
    kubectlOk(['create', '-f', '-'], JSON.stringify(pod));
    const running = await eventually('test-pod 2/2 Running', () => {
      const p = getJson<Pod>(['pod', 'test-pod', '-n', NS]);
      return allRunning(p) && p;
    }, 120_000);
    assert.deepEqual(running.spec.containers.map((c) => c.name), ['sidecar1', 'app']);
    assert.equal(running.spec.nodeName, name);
    // Real containers: exec goes apiserver → kubelet → containerd; the pod's containers share one netns.
    assert.match(kubectlOk(['exec', '-n', NS, 'test-pod', '-c', 'sidecar1', '--', 'cat', '/etc/kruise-ts-stand-in']), /stand-in for busybox:latest/);
    assert.match(kubectlOk(['exec', '-n', NS, 'test-pod', '-c', 'sidecar1', '--', 'wget', '-q', '-O', '-', 'http://127.0.0.1/']), /Welcome to nginx!/);
    assert.ok(node?.network && running.status.podIP?.startsWith(node.network.subnet.replace(/0\/24$/, '')), `${running.status.podIP} in ${node?.network?.subnet}`);
  });

  it('runs the 3-replica nginx Deployment (05) there, each pod 2/2 and answering HTTP on its pod IP', async (t) => {
    if (typeof s === 'string' || !(await serves(s, '/mutate-pod'))) return t.skip('the manager does not serve /mutate-pod yet');
    const deploy = example('05-nginx-deployment.yaml');
    deploy.metadata.namespace = NS;
    deploy.spec.template.spec.nodeSelector = { [REAL_NODE_LABEL]: 'true' };
    deploy.spec.template.spec.tolerations = [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }];
    kubectlOk(['apply', '-f', '-'], JSON.stringify(deploy));
    const pods = await eventually('3 nginx pods 2/2 Running', () => {
      const l = getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', 'app=nginx']).items.filter((p) => p.metadata.name !== 'test-pod');
      return l.length === 3 && l.every(allRunning) && l;
    }, 180_000);
    for (const p of pods) {
      assert.equal(p.spec.nodeName, name, p.metadata.name);
      assert.deepEqual(p.spec.containers.map((c) => c.name), ['sidecar1', 'ngx'], p.metadata.name);
      // The host reaches pod IPs through the run's bridge (no kube-proxy, no routes out of it).
      const body = await (await fetch(`http://${p.status.podIP}/`)).text();
      assert.match(body, /Welcome to nginx!/, p.metadata.name);
    }
  });
});

describe('kruise-ts as Helm installs it, as pods on the real node', { skip: skip || (typeof s !== 'string' && !s.release ? 'no Helm release' : false), timeout: 600_000 }, () => {
  const name = node?.name ?? '';
  type ManagerPod = Pod & { spec: { serviceAccountName?: string; hostNetwork?: boolean }; status: { containerStatuses?: (ContainerStatus & { imageID: string })[] } };
  const podOn = (selector: string, namespace = 'kruise-system') => getJson<{ items: ManagerPod[] }>(
    ['pods', '-n', namespace, '-l', selector]).items.filter((p) => p.spec.nodeName === name);
  before(async () => {
    kubectlOk(['apply', '-f', join(import.meta.dirname, 'cluster/examples/01-sidecarset-demo.yaml')]);
    await untilInjected('default', { app: 'nginx' }, 'sidecar1', 'busybox');
  });

  it('helm reports the release deployed', () => {
    if (typeof s === 'string' || !s.helm) return;
    const r = spawnSync(s.helm, ['status', 'kruise-ts', '-o', 'json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { info: { status: string } }).info.status, 'deployed');
  });

  it('2 webhook and 2 controller pods, from the image built with umoci, are Ready on the pod network, each as its own ServiceAccount', async () => {
    const ready = (selector: string) => eventually(`${selector} pods Ready on the real node`, () => {
      const l = podOn(selector);
      return l.length === 2 && l.every(allRunning) && l;
    }, 240_000);
    const webhooks = await ready('control-plane=webhook');
    const controllers = await ready('control-plane=controller-manager');
    for (const p of webhooks) assert.equal(p.spec.serviceAccountName, 'kruise-webhook');
    for (const p of controllers) assert.equal(p.spec.serviceAccountName, 'kruise-manager');
    for (const p of [...webhooks, ...controllers]) {
      assert.notEqual(p.spec.hostNetwork, true, p.metadata.name);
      assert.match(p.status.podIP ?? '', /^10\.88\.\d+\.\d+$/, p.metadata.name);
      for (const c of p.status.containerStatuses ?? []) {
        assert.equal(c.image, 'docker.io/kruise-ts/manager:dev', c.name);
        assert.match(c.imageID, /^docker\.io\/kruise-ts\/manager@sha256:/, c.name);
      }
    }
    // One of the two controller pods leads; it reached the apiserver through Service kubernetes (10.96.0.1).
    const holder = getJson<{ spec: { holderIdentity?: string } }>(['lease', '-n', 'kruise-system', 'kruise-manager']).spec.holderIdentity ?? '';
    assert.ok(controllers.some((p) => holder.startsWith(`${p.metadata.name}_`)), `lease held by '${holder}'`);
  });

  it('Service kubernetes routes to the apiserver on the pod bridge, and the webhook Service to the webhook pods', () => {
    const slices = (svc: string, ns: string) => getJson<{ items: { endpoints?: { addresses: string[] }[] }[] }>(['endpointslices', '-n', ns, '-l', `kubernetes.io/service-name=${svc}`])
      .items.flatMap((i) => i.endpoints ?? []).flatMap((e) => e.addresses);
    const gw = node?.network?.subnet.replace(/\.0\/24$/, '.1');
    assert.deepEqual(slices('kubernetes', 'default'), [gw]);
    const webhookIps = podOn('control-plane=webhook').map((p) => p.status.podIP).sort();
    assert.deepEqual(slices('kruise-webhook-service', 'kruise-system').sort(), webhookIps);
  });

  it('its webhook answers an AdmissionReview through the Service\'s ClusterIP (kube-proxy), with the certificate it made', () => {
    const secret = getJson<{ data: Record<string, string> }>(['secret', 'kruise-webhook-certs', '-n', 'kruise-system']);
    const clusterIP = getJson<{ spec: { clusterIP: string } }>(['service', 'kruise-webhook-service', '-n', 'kruise-system']).spec.clusterIP;
    const dir = mkdtempSync(join(tmpdir(), 'kts-ca-'));
    try {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, Buffer.from(secret.data['ca-cert.pem'] ?? '', 'base64'));
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'review', namespace: 'default', labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } };
      const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {
        uid: 'in-cluster-1', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'default', operation: 'CREATE', userInfo: { username: 'e2e' }, object: pod } };
      const host = 'kruise-webhook-service.kruise-system.svc';
      const r = spawnSync('curl', ['-sS', '--max-time', '10', '--cacert', ca, '--resolve', `${host}:443:${clusterIP}`, '-H', 'Content-Type: application/json',
        '--data-binary', '@-', `https://${host}/mutate-pod`], { input: JSON.stringify(review), encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const res = JSON.parse(r.stdout) as { response: { uid: string; allowed: boolean; patch?: string } };
      assert.equal(res.response.uid, 'in-cluster-1');
      assert.equal(res.response.allowed, true);
      assert.match(Buffer.from(res.response.patch ?? '', 'base64').toString(), /"name":"sidecar1"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the daemon DaemonSet\'s pod on the real node runs against the node\'s containerd', { timeout: 480_000 }, async () => {
    await eventually('daemon pod Running on the real node', () => {
      const l = podOn('control-plane=daemon', 'kruise-daemon');
      return l.length === 1 && l.every(allRunning) && l;
    }, 240_000);
    if (typeof s === 'string' || !s.release) return;
    // hostNetwork: its health server is on the node's loopback; /healthz includes a CRI Version call.
    const port = s.release.daemonPort;
    await waitFor('daemon /healthz', async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 180_000)
      .catch((err: Error) => { throw new Error(`${err.message}\n${podLogsOnNode(name, 'kruise-daemon', 'control-plane=daemon')}`); });
  });
});
