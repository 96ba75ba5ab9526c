// The production handler table with the real domain functions behind it, end to end through inject.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fjp from 'fast-json-patch';
import { admissionCaches, staticCache } from '../caches.js';
import { decodePatch, review, testApp } from '../test-helpers.js';
import { makeRoutes } from './index.js';

const gates = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: true, SidecarSetPatchPodMetadataDefaultsAllowed: false, EnableSortSidecarContainerByName: false, PreDownloadImageForInPlaceUpdate: false, ImageVolume: false, WorkloadSpread: true };
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

test('the article\'s CloneSet is defaulted to the template upstream hashes as busybox-69478977cd', async () => {
  const { app } = testApp(routes);
  const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'busybox', namespace: 'default' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'hotupgrade' } }, template: { metadata: { labels: { app: 'hotupgrade' } }, spec: { containers: [{ name: 'busybox', image: 'openkruise/hotupgrade-sample:busybox' }] } } } };
  const res = (await app.inject({ method: 'POST', url: '/mutate-apps-kruise-io-v1alpha1-cloneset', payload: review({ namespace: 'default', kind: kruiseKind('CloneSet'), object: obj }) })).json().response;
  assert.equal(res.allowed, true);
  const out = fjp.applyPatch(structuredClone(obj), decodePatch(res.patch)).newDocument as any;
  assert.deepEqual(out.spec.updateStrategy, { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 });
  assert.equal(out.spec.template.spec.containers[0].imagePullPolicy, 'Always');
  const { newRevision } = await import('../../shared/domain/cloneset/revision.js');
  assert.equal(newRevision(out, 1, 0).metadata.name, 'busybox-69478977cd');
});

test('a CloneSet with a wrong-typed template field is refused with 400, invalid fields with 422 and every message', async () => {
  const { app } = testApp(routes);
  const bad = { metadata: { name: 'x', namespace: 'default' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [{ name: 'c', image: 'i', securityContext: 3 }] } } } };
  const r1 = (await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-v1alpha1-cloneset', payload: review({ namespace: 'default', kind: kruiseKind('CloneSet'), object: bad }) })).json().response;
  assert.equal(r1.status.code, 400);
  // As the mutating webhook leaves it (partition, grace period and DNS policy defaulted), with two invalid fields.
  const invalid = { metadata: { name: 'x', namespace: 'default' }, spec: { replicas: -1, selector: { matchLabels: { a: 'b' } }, updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: 1 },
    template: { metadata: { labels: { a: 'b' } }, spec: { restartPolicy: 'Never', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'i', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] } } } };
  const r2 = (await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-v1alpha1-cloneset', payload: review({ namespace: 'default', kind: kruiseKind('CloneSet'), object: invalid }) })).json().response;
  assert.equal(r2.allowed, false);
  assert.equal(r2.status.code, 422);
  assert.equal(r2.status.message, '[spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]');
});
