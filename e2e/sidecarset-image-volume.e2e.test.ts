// A SidecarSet carrying `image` volumes (Kubernetes 1.31+ ImageVolume, on in the local apiserver and, as Kubernetes'
// own gate, in the kruise-ts stack: harness/cluster/feature-gates.ts) is admitted, stored with its volumes as written
// (no emptyDir beside them; the missing pullPolicy defaulted as Kubernetes 1.32 defaults it), and a pod it injects is
// accepted by the apiserver's own pod validation. The pod is pinned to no node: it is only created, never run.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';
import { k8sMinor } from './harness/cluster/k8s-version.js';

interface Volume { name: string; image?: { reference?: string; pullPolicy?: string }; emptyDir?: object }
interface Container { name: string; volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[] }
interface Stored { metadata: { annotations?: Record<string, string> }; spec: { containers: Container[]; volumes?: Volume[] } }

const s = stack();
const labels = { app: 'image-volume' };

const sidecarSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'scs-image-volume' },
  spec: {
    selector: { matchLabels: labels },
    containers: [{
      name: 'tools', image: 'busybox:1.36', command: ['sleep', '3600'],
      volumeMounts: [{ name: 'artifact', mountPath: '/artifact', readOnly: true }, { name: 'latest', mountPath: '/latest', readOnly: true }],
    }],
    volumes: [
      { name: 'artifact', image: { reference: 'busybox:1.36', pullPolicy: 'IfNotPresent' } },
      { name: 'latest', image: { reference: 'busybox' } },
    ],
  },
};

describe('SidecarSet with image volumes', { skip: typeof s === 'string' ? s : k8sMinor() < 31 ? 'image volumes need Kubernetes 1.31 or later' : false }, () => {
  after(() => {
    kubectl(['delete', 'pod', 'image-volume-pod', '--ignore-not-found', '--grace-period=0', '--force']);
    kubectl(['delete', 'sidecarset', 'scs-image-volume', '--ignore-not-found']);
  });

  it('is admitted and stored with its image volumes only, the missing pullPolicy defaulted (Always: no tag)', () => {
    kubectlOk(['create', '-f', '-'], JSON.stringify(sidecarSet));
    const stored = getJson<Stored>(['sidecarset', 'scs-image-volume']);
    assert.deepEqual(stored.spec.volumes, [
      { name: 'artifact', image: { reference: 'busybox:1.36', pullPolicy: 'IfNotPresent' } },
      { name: 'latest', image: { reference: 'busybox', pullPolicy: 'Always' } },
    ]);
  });

  it('a pod it injects is accepted by the apiserver with the image volumes and the sidecar mounting them', async (t) => {
    if (typeof s === 'string' || !(await serves(s, '/mutate-pod'))) return t.skip('the manager does not serve /mutate-pod yet');
    await untilInjected('default', labels, 'tools', 'busybox:1.36');
    const pod = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'image-volume-pod', namespace: 'default', labels },
      spec: { nodeSelector: { 'kruise-ts.e2e/no-such-node': 'true' }, containers: [{ name: 'app', image: 'nginx:1.7.9' }] },
    };
    kubectlOk(['create', '-f', '-'], JSON.stringify(pod));
    const stored = getJson<Stored>(['pod', 'image-volume-pod']);
    assert.deepEqual(stored.spec.containers.map((c) => c.name), ['tools', 'app']);
    const images = (stored.spec.volumes ?? []).filter((v) => v.image);
    assert.deepEqual(images, [
      { name: 'artifact', image: { reference: 'busybox:1.36', pullPolicy: 'IfNotPresent' } },
      { name: 'latest', image: { reference: 'busybox', pullPolicy: 'Always' } },
    ]);
    assert.deepEqual(stored.spec.containers[0]?.volumeMounts?.filter((m) => m.mountPath !== '/var/run/secrets/kubernetes.io/serviceaccount'), [
      { name: 'artifact', mountPath: '/artifact', readOnly: true }, { name: 'latest', mountPath: '/latest', readOnly: true },
    ]);
    assert.equal(stored.metadata.annotations?.['kruise.io/sidecarset-injected-list'], 'scs-image-volume');
  });

  it('an image volume next to another source is refused with Kubernetes\' message', () => {
    const bad = structuredClone(sidecarSet);
    bad.metadata.name = 'scs-image-volume-bad';
    bad.spec.selector = { matchLabels: { app: 'image-volume-bad' } };
    (bad.spec.volumes[0] as Record<string, unknown>).emptyDir = {};
    const r = kubectl(['create', '-f', '-'], JSON.stringify(bad));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "vsidecarset\.kb\.io" denied the request/);
    assert.ok(r.stderr.includes('spec.volumes[0].image: Forbidden: may not specify more than 1 volume type'), r.stderr);
  });
});
