// The production handler table with the real domain functions behind it, end to end through inject.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fjp from 'fast-json-patch';
import { admissionCaches, staticCache } from '../caches.js';
import { decodePatch, review, testApp } from '../test-helpers.js';
import { makeRoutes } from './index.js';

const gates = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: true, SidecarSetPatchPodMetadataDefaultsAllowed: false, EnableSortSidecarContainerByName: false };
const caches = admissionCaches(
  { sidecarSets: staticCache([]), namespaces: staticCache([{ metadata: { name: 'default', labels: {} } }]), revisions: staticCache([]), configMaps: staticCache([]) },
  { fetchPod: async () => undefined, fetchNode: async () => undefined },
);
const routes = makeRoutes({ caches, gates, now: () => new Date('2026-01-02T03:04:05Z'), random: () => 0.5 });
const kruiseKind = (kind: string) => ({ group: 'apps.kruise.io', version: 'v1alpha1', kind });

test('a SidecarSet CREATE is defaulted and gets both hash annotations', async () => {
  const { app } = testApp(routes);
  const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'log' }, spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'agent', image: 'busybox:1.36' }] } };
  const res = (await app.inject({ method: 'POST', url: '/mutate-apps-kruise-io-v1alpha1-sidecarset', payload: review({ kind: kruiseKind('SidecarSet'), object: obj }) })).json().response;
  assert.equal(res.allowed, true);
  const out = fjp.applyPatch(structuredClone(obj), decodePatch(res.patch)).newDocument as any;
  assert.equal(out.spec.updateStrategy.type, 'RollingUpdate');
  assert.equal(out.spec.containers[0].podInjectPolicy, 'BeforeAppContainer');
  assert.match(out.metadata.annotations['kruise.io/sidecarset-hash'], /^[a-z0-9]+$/);
  assert.ok(out.metadata.annotations['kruise.io/sidecarset-hash-without-image']);
});

test('a SidecarSet with a bad name is denied with 403 and the field error', async () => {
  const { app } = testApp(routes);
  const obj = { metadata: { name: 'bad_name' }, spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'agent', image: 'busybox' }] } };
  const res = (await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-v1alpha1-sidecarset', payload: review({ kind: kruiseKind('SidecarSet'), object: obj }) })).json().response;
  assert.equal(res.allowed, false);
  assert.equal(res.status.code, 403);
  assert.match(res.status.message, /metadata.name/);
});

test('a NodeImage tag gets createdAt from the injected clock', async () => {
  const { app } = testApp(routes);
  const obj = { metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [{ tag: '1.25' }] } } } };
  const res = (await app.inject({ method: 'POST', url: '/mutate-apps-kruise-io-v1alpha1-nodeimage', payload: review({ kind: kruiseKind('NodeImage'), object: obj }) })).json().response;
  const out = fjp.applyPatch(structuredClone(obj), decodePatch(res.patch)).newDocument as any;
  assert.equal(out.spec.images.nginx.tags[0].createdAt, '2026-01-02T03:04:05Z');
});

test('an ImagePullJob without an image is refused with 400', async () => {
  const { app } = testApp(routes);
  const res = (await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-v1alpha1-imagepulljob', payload: review({ kind: kruiseKind('ImagePullJob'), object: { metadata: { name: 'j', namespace: 'default' }, spec: { image: '' } } }) })).json().response;
  assert.equal(res.allowed, false);
  assert.equal(res.status.code, 400);
});

test('a ContainerRecreateRequest for a missing pod is refused with 400', async () => {
  const { app } = testApp(routes);
  const res = (await app.inject({ method: 'POST', url: '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest', payload: review({ namespace: 'default', kind: kruiseKind('ContainerRecreateRequest'), object: { metadata: { name: 'c', namespace: 'default' }, spec: { podName: 'gone', containers: [{ name: 'app' }] } } }) })).json().response;
  assert.equal(res.allowed, false);
  assert.equal(res.status.code, 400);
  assert.match(res.status.message, /gone/);
});

test('a pod CREATE gets the sidecar of the matching SidecarSet only, through the cached context', async () => {
  const set = (name: string, app: string) => ({
    metadata: { name, annotations: { 'kruise.io/sidecarset-hash': `h-${name}`, 'kruise.io/sidecarset-hash-without-image': `w-${name}` } },
    spec: { selector: { matchLabels: { app } }, updateStrategy: { type: 'RollingUpdate' }, containers: [{ name: `${name}-c`, image: 'busybox:1.36', podInjectPolicy: 'AfterAppContainer', shareVolumePolicy: { type: 'disabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' } }] },
  });
  const withSets = admissionCaches(
    { sidecarSets: staticCache([set('b-other', 'db'), set('a-log', 'web')] as any), namespaces: staticCache([{ metadata: { name: 'default', labels: {} } }]), revisions: staticCache([]), configMaps: staticCache([]) },
    { fetchPod: async () => undefined, fetchNode: async () => undefined },
  );
  const { app } = testApp(makeRoutes({ caches: withSets, gates, now: () => new Date('2026-01-02T03:04:05Z'), random: () => 0.5 }));
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
  const res = (await app.inject({ method: 'POST', url: '/mutate-pod', payload: review({ namespace: 'default', resource: { group: '', version: 'v1', resource: 'pods' }, object: pod }) })).json().response;
  assert.equal(res.allowed, true);
  const out = fjp.applyPatch(structuredClone(pod), decodePatch(res.patch)).newDocument as any;
  assert.deepEqual(out.spec.containers.map((c: any) => c.name), ['app', 'a-log-c']);
  assert.match(out.metadata.annotations['kruise.io/sidecarset-injected-list'] ?? '', /a-log/);
});
