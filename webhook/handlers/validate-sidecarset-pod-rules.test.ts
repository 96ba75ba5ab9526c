// End to end through the HTTP routes: a SidecarSet is defaulted by the mutating route, as the apiserver would do,
// then sent to the validating route, which must refuse it with Kubernetes' own pod-validation message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fjp from 'fast-json-patch';
import { admissionCaches, staticCache } from '../caches.js';
import { decodePatch, review, testApp } from '../test-helpers.js';
import { makeRoutes } from './index.js';

const gates = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: true, SidecarSetPatchPodMetadataDefaultsAllowed: false, EnableSortSidecarContainerByName: false, PreDownloadImageForInPlaceUpdate: false, ImageVolume: false, WorkloadSpread: true };
const caches = admissionCaches(
  { sidecarSets: staticCache([]), namespaces: staticCache([]), revisions: staticCache([]), configMaps: staticCache([]) },
  { fetchPod: async () => undefined, fetchNode: async () => undefined },
);
const routes = makeRoutes({ caches, gates, now: () => new Date('2026-01-02T03:04:05Z'), random: () => 0.5 });
const kind = { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' };

async function admit(spec: object): Promise<{ allowed: boolean; message?: string }> {
  const { app } = testApp(routes);
  const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'log' }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } };
  const mutated = (await app.inject({ method: 'POST', url: '/mutate-apps-kruise-io-v1alpha1-sidecarset', payload: review({ kind, object: obj }) })).json().response;
  assert.equal(mutated.allowed, true);
  const defaulted = mutated.patch ? fjp.applyPatch(structuredClone(obj), decodePatch(mutated.patch)).newDocument : obj;
  const res = (await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-v1alpha1-sidecarset', payload: review({ kind, object: defaulted }) })).json().response;
  return { allowed: res.allowed, message: res.status?.message };
}

const cases: { name: string; spec: object; message: string }[] = [
  {
    name: 'an env var with both value and valueFrom',
    spec: { containers: [{ name: 'agent', image: 'busybox:1.36', env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }] },
    message: 'spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
  },
  {
    name: 'a liveness probe successThreshold other than 1',
    spec: { containers: [{ name: 'agent', image: 'busybox:1.36', livenessProbe: { exec: { command: ['true'] }, successThreshold: 2 } }] },
    message: 'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
  },
  {
    name: 'a probe on a plain init container',
    spec: { initContainers: [{ name: 'init', image: 'busybox:1.36', readinessProbe: { exec: { command: ['true'] } } }] },
    message: 'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
  },
  {
    name: 'an unknown hostPath type and an absolute subPath, aggregated',
    spec: {
      containers: [{ name: 'agent', image: 'busybox:1.36', volumeMounts: [{ name: 'logs', mountPath: '/logs', subPath: '/abs' }] }],
      volumes: [{ name: 'logs', hostPath: { path: '/var/log', type: 'Folder' } }],
    },
    message:
      '[spec.volumes[0].hostPath.type: Unsupported value: "Folder": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket", ' +
      'spec.containers[0].volumeMounts[0].name: Not found: "logs", spec.containers[0].volumeMounts.subPath: Invalid value: "/abs": must be a relative path]',
  },
];

for (const tc of cases) {
  test(`the SidecarSet webhook refuses ${tc.name} with Kubernetes' message`, async () => {
    const res = await admit(tc.spec);
    assert.equal(res.allowed, false);
    assert.equal(res.message, tc.message);
  });
}

test('the SidecarSet webhook admits a defaulted SidecarSet using env, ports, probes and volumes correctly', async () => {
  const res = await admit({
    containers: [
      {
        name: 'agent',
        image: 'busybox:1.36',
        env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        ports: [{ name: 'metrics', containerPort: 9100 }],
        livenessProbe: { httpGet: { port: 'metrics' } },
        volumeMounts: [{ name: 'logs', mountPath: '/logs' }],
        resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } },
      },
    ],
    volumes: [{ name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } }],
  });
  assert.deepEqual(res, { allowed: true, message: 'allowed to be admitted' });
});
