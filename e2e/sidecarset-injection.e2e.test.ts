// SidecarSet injection through the real apiserver: the seed demo, a Deployment's pods made by the real
// controller-manager and scheduled on kwok nodes, conflicts refused, and kube-system never sent to the webhook.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';

interface Container { name: string; env?: { name: string; value?: string }[]; volumeMounts?: { name: string }[]; resources?: Record<string, Record<string, string>> }
interface Pod { metadata: { name: string; annotations?: Record<string, string> }; spec: { containers: Container[]; volumes?: { name: string }[]; nodeName?: string } }

const s = stack();
const examples = join(import.meta.dirname, 'cluster/examples');
const ex = (f: string) => join(examples, f);

describe('SidecarSet injection', { skip: typeof s === 'string' ? s : false }, () => {
  before(async () => {
    kubectlOk(['apply', '-f', ex('01-sidecarset-demo.yaml')]);
    await untilInjected('default', { app: 'nginx' }, 'sidecar1', 'busybox');
  });
  after(() => {
    kubectl(['delete', '-f', ex('05-nginx-deployment.yaml'), '--ignore-not-found', '--wait=false']);
    kubectl(['delete', 'pod', 'test-pod', '--ignore-not-found', '--grace-period=0', '--force']);
    kubectl(['delete', 'pod', 'respolicy-pod', '--ignore-not-found', '--grace-period=0', '--force']);
    kubectl(['delete', 'sidecarset', 'scs-demo', 'scs-conflict', 'scs-respolicy', 'scs-bad-respolicy', 'scs-bad-env', '--ignore-not-found']);
  });

  it('02-test-pod is stored with sidecar1 first, IS_INJECTED, the log volume and the hash annotations', async (t) => {
    if (typeof s === 'string' || !(await serves(s, '/mutate-pod'))) return t.skip('the manager does not serve /mutate-pod yet');
    kubectlOk(['apply', '-f', ex('02-test-pod.yaml')]);
    const pod = getJson<Pod>(['pod', 'test-pod']);
    assert.deepEqual(pod.spec.containers.map((c) => c.name), ['sidecar1', 'app']);
    const sidecar = pod.spec.containers[0] as Container;
    assert.deepEqual(sidecar.env?.find((e) => e.name === 'IS_INJECTED'), { name: 'IS_INJECTED', value: 'true' });
    assert.ok(pod.spec.volumes?.some((v) => v.name === 'log-volume'));
    assert.ok(sidecar.volumeMounts?.some((m) => m.name === 'log-volume'));
    const ann = pod.metadata.annotations ?? {};
    assert.ok(JSON.parse(ann['kruise.io/sidecarset-hash'] ?? '{}')['scs-demo'], 'kruise.io/sidecarset-hash names scs-demo');
    assert.ok(JSON.parse(ann['kruise.io/sidecarset-hash-without-image'] ?? '{}')['scs-demo']);
    assert.equal(ann['kruise.io/sidecarset-injected-list'], 'scs-demo');
  });

  it('the 3 pods the controller-manager creates for 05-nginx-deployment are injected and scheduled to kwok nodes', async (t) => {
    if (typeof s === 'string' || !(await serves(s, '/mutate-pod'))) return t.skip('the manager does not serve /mutate-pod yet');
    kubectlOk(['apply', '-f', ex('05-nginx-deployment.yaml')]);
    const pods = await eventually('3 scheduled nginx pods', () => {
      const l = getJson<{ items: Pod[] }>(['pods', '-l', 'app=nginx', '-n', 'default']).items.filter((p) => p.metadata.name !== 'test-pod');
      return l.length === 3 && l.every((p) => p.spec.nodeName?.startsWith('kwok-node-')) && l;
    }, 60_000);
    for (const p of pods) assert.deepEqual(p.spec.containers.map((c) => c.name)[0], 'sidecar1', p.metadata.name);
  });

  it('a second SidecarSet injecting sidecar1 into overlapping pods is refused with the webhook message', () => {
    const conflict = readFileSync(ex('01-sidecarset-demo.yaml'), 'utf8').replace('name: scs-demo', 'name: scs-conflict');
    const r = kubectl(['apply', '-f', '-'], conflict);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "vsidecarset\.kb\.io" denied the request/);
    assert.match(r.stderr, /sidecar1/);
  });

  it("a SidecarSet breaking a Kubernetes container rule is refused with Kubernetes' own path and message", () => {
    const bad = {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'scs-bad-env' },
      spec: {
        selector: { matchLabels: { app: 'nobody' } },
        containers: [{ name: 'agent', image: 'busybox:1.36', env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }],
      },
    };
    const r = kubectl(['create', '-f', '-'], JSON.stringify(bad));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "vsidecarset\.kb\.io" denied the request/);
    assert.ok(r.stderr.includes('spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty'), r.stderr);
  });

  it('kube-system pods are never sent to the webhook: a matching pod there is stored unchanged', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'not-injected', namespace: 'kube-system', labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } };
    kubectlOk(['create', '-f', '-'], JSON.stringify(pod));
    try {
      const stored = getJson<Pod>(['pod', 'not-injected', '-n', 'kube-system']);
      assert.deepEqual(stored.spec.containers.map((c) => c.name), ['app']);
      assert.equal(stored.metadata.annotations?.['kruise.io/sidecarset-injected-list'], undefined);
    } finally {
      kubectl(['delete', 'pod', 'not-injected', '-n', 'kube-system', '--grace-period=0', '--force']);
    }
  });

  it('a SidecarSet with resourcesPolicy injects the resources computed from the app containers (v1.9)', async (t) => {
    if (typeof s === 'string' || !(await serves(s, '/mutate-pod'))) return t.skip('the manager does not serve /mutate-pod yet');
    const set = {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'scs-respolicy' },
      spec: {
        selector: { matchLabels: { app: 'respolicy' } },
        containers: [{
          name: 'proxy', image: 'busybox:1.36', command: ['sleep', '3600'], podInjectPolicy: 'BeforeAppContainer',
          resourcesPolicy: {
            targetContainersMode: 'sum', targetContainersNameRegex: '^app', // also matches the probe's container 'app'
            resourcesExpr: { limits: { cpu: 'cpu*50%', memory: 'memory*25%' }, requests: { cpu: 'max(cpu*10%, 10m)', memory: '32Mi' } },
          },
        }],
      },
    };
    kubectlOk(['apply', '-f', '-'], JSON.stringify(set));
    const app = (name: string, cpu: string, memory: string, rcpu: string, rmemory: string) =>
      ({ name, image: 'busybox:1.36', command: ['sleep', '3600'], resources: { limits: { cpu, memory }, requests: { cpu: rcpu, memory: rmemory } } });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'respolicy-pod', namespace: 'default', labels: { app: 'respolicy' } },
      spec: { containers: [app('app-a', '1', '1Gi', '500m', '512Mi'), app('app-b', '500m', '1Gi', '250m', '256Mi')] } };
    await untilInjected('default', { app: 'respolicy' }, 'proxy', 'busybox:1.36');
    kubectlOk(['create', '-f', '-'], JSON.stringify(pod));
    const stored = getJson<Pod>(['pod', 'respolicy-pod']);
    assert.deepEqual(stored.spec.containers[0]?.resources, { limits: { cpu: '750m', memory: '512Mi' }, requests: { cpu: '75m', memory: '32Mi' } });
  });

  it('a resourcesPolicy expression that does not evaluate is refused with upstream path and message', () => {
    const bad = {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'scs-bad-respolicy' },
      spec: {
        selector: { matchLabels: { app: 'respolicy-bad' } },
        containers: [{ name: 'proxy', image: 'busybox:1.36', resourcesPolicy: { targetContainersMode: 'max', targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu - 2' } } } }],
      },
    };
    const r = kubectl(['apply', '-f', '-'], JSON.stringify(bad));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\[0\]\.resourcesPolicy\.resourcesExpr\.limits\.cpu: Invalid value: "cpu - 2": invalid expression: calculation result is negative: -1/);
  });
});
