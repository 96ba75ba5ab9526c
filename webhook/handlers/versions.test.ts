// The v1.9 webhook paths next to the v1.8 ones, and the handlers' behaviour by request version
// (spec/openkruise-v1.9.md §2.4, §5.1, §9.1), through the production table and the in-process app.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fjp from 'fast-json-patch';
import { sidecarSetToV1beta1 } from '../../shared/domain/conversion/sidecarset.js';
import { sidecarSetCacheForm } from '../../shared/kube/sidecarset-cache.js';
import { admissionCaches, staticCache } from '../caches.js';
import { decodePatch, review, testApp } from '../test-helpers.js';
import { makeRoutes } from './index.js';
import { V18_PATHS } from './paths.js';
import { testGates } from '../../shared/testing/gates.js';

const gates = testGates({ ResourceDistributionGate: true, PodUnavailableBudgetUpdateGate: true });
const cachesWith = (sidecarSets: object[] = []) => admissionCaches(
  { sidecarSets: staticCache(sidecarSets as never[]), namespaces: staticCache([{ metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } }]), revisions: staticCache([]), configMaps: staticCache([]) },
  { fetchPod: async () => undefined, fetchNode: async () => undefined },
);
const routesWith = (sidecarSets: object[] = []) => makeRoutes({ caches: cachesWith(sidecarSets), gates, now: () => new Date('2026-01-02T03:04:05Z'), random: () => 0.5 });
const kind = (version: string, k: string) => ({ group: 'apps.kruise.io', version, kind: k });
const resource = (version: string, r: string) => ({ group: 'apps.kruise.io', version, resource: r });

// A sidecar container as the mutating webhook leaves it (validation expects defaulted objects).
const defaulted = { name: 'agent', image: 'busybox:1.36', podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'disabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' },
  imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' };

const V19_PATHS = [
  '/mutate-pod',
  '/mutate-apps-kruise-io-sidecarset', '/validate-apps-kruise-io-sidecarset',
  '/mutate-apps-kruise-io-imagepulljob', '/validate-apps-kruise-io-imagepulljob',
  '/mutate-apps-kruise-io-imagelistpulljob', '/validate-apps-kruise-io-imagelistpulljob',
  '/mutate-apps-kruise-io-nodeimage', '/validate-apps-kruise-io-nodeimage',
  '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest',
  '/validate-apps-kruise-io-v1alpha1-resourcedistribution',
  '/validate-apps-kruise-io-podprobemarker',
  // CloneSet has only v1alpha1, and v1.9 keeps its versioned paths.
  '/mutate-apps-kruise-io-v1alpha1-cloneset', '/validate-apps-kruise-io-v1alpha1-cloneset',
  // policy.kruise.io has no v1.8/v1.9 difference.
  '/validate-pod', '/validate-policy-kruise-io-podunavailablebudget',
  // WorkloadSpread (spec/availability-guards.md §0.5): one path.
  '/validate-apps-kruise-io-v1alpha1-workloadspread',
  // Deletion protection: registered whatever the gate (service and ingress only with it, off here).
  '/validate-namespace', '/validate-customresourcedefinition', '/validate-apps-deployment', '/validate-apps-replicaset', '/validate-apps-statefulset',
];
const V18_ONLY = [
  '/mutate-apps-kruise-io-v1alpha1-sidecarset', '/validate-apps-kruise-io-v1alpha1-sidecarset',
  '/mutate-apps-kruise-io-v1alpha1-imagepulljob', '/validate-apps-kruise-io-v1alpha1-imagepulljob',
  '/mutate-apps-kruise-io-v1alpha1-imagelistpulljob', '/validate-apps-kruise-io-v1alpha1-imagelistpulljob',
  '/mutate-apps-kruise-io-v1alpha1-nodeimage', '/validate-apps-kruise-io-v1alpha1-nodeimage',
];

test('the table serves every v1.9 path and, next to it, every v1.8 path, and nothing else', () => {
  assert.deepEqual(routesWith().map((r) => r.path).sort(), [...V19_PATHS, ...V18_ONLY].sort());
  for (const old of V18_ONLY) assert.ok(Object.values(V18_PATHS).includes(old), old);
});

// Each path gets a review of the kind its webhook admits; the answer must echo the uid and not be a refusal of the
// request itself (a 400 would mean the path is served by the wrong handler or not at all).
const kindOf = (path: string) => path === '/validate-pod'
  ? { kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default', operation: 'DELETE' as const, oldObject: { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'a', image: 'a' }] } } }
  : path.includes('podunavailablebudget') ? { kind: { group: 'policy.kruise.io', version: 'v1alpha1', kind: 'PodUnavailableBudget' }, namespace: 'default', object: { metadata: { name: 'p', namespace: 'default' }, spec: { selector: { matchLabels: { a: 'b' } }, maxUnavailable: 1 } } }
  : path === '/mutate-pod'
  ? { kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default', object: { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'a', image: 'a' }] } } }
  : path === '/validate-pod' ? { kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default', operation: 'DELETE' as const, oldObject: { metadata: { name: 'p', namespace: 'default' } } }
  : path.includes('workloadspread') ? { kind: kind('v1alpha1', 'WorkloadSpread'), namespace: 'default', object: { metadata: { name: 'ws', namespace: 'default' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, subsets: [{ name: 'a' }] } } }
  : path.includes('cloneset') ? { kind: kind('v1alpha1', 'CloneSet'), namespace: 'default', operation: 'DELETE' as const, oldObject: { metadata: { name: 'c', namespace: 'default' } } }
  : path.includes('sidecarset') ? { kind: kind('v1alpha1', 'SidecarSet'), object: { metadata: { name: 's' }, spec: { selector: { matchLabels: { a: 'b' } }, containers: [defaulted] } } }
  : path.includes('imagepulljob') ? { kind: kind('v1alpha1', 'ImagePullJob'), namespace: 'default', object: { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1', completionPolicy: { type: 'Always' } } } }
  : path.includes('imagelistpulljob') ? { kind: kind('v1alpha1', 'ImageListPullJob'), namespace: 'default', object: { metadata: { name: 'l', namespace: 'default' }, spec: { images: ['nginx:1'], completionPolicy: { type: 'Always' } } } }
  : path.includes('nodeimage') ? { kind: kind('v1alpha1', 'NodeImage'), object: { metadata: { name: 'n' }, spec: {} } }
  : path.includes('containerrecreaterequest') ? { kind: kind('v1alpha1', 'ContainerRecreateRequest'), operation: 'UPDATE' as const, object: { metadata: { name: 'c' }, spec: { podName: 'p' } }, oldObject: { metadata: { name: 'c' }, spec: { podName: 'p' } } }
  : { kind: kind('v1alpha1', 'ResourceDistribution'), operation: 'DELETE' as const };

for (const path of [...V19_PATHS, ...V18_ONLY]) {
  test(`${path} answers an admission review`, async () => {
    const { app } = testApp(routesWith());
    const res = await app.inject({ method: 'POST', url: path, payload: review({ uid: `u-${path}`, ...kindOf(path) }) });
    assert.equal(res.statusCode, 200);
    const r = res.json().response;
    assert.equal(r.uid, `u-${path}`);
    assert.equal(r.allowed, true, JSON.stringify(r.status));
  });
}

const sidecarSet = { metadata: { name: 'log' }, spec: { selector: { matchLabels: { app: 'web' } }, containers: [defaulted] } };

async function admit(path: string, o: Parameters<typeof review>[0]) {
  const { app } = testApp(routesWith());
  return (await app.inject({ method: 'POST', url: path, payload: review(o) })).json().response;
}

test('a v1beta1 SidecarSet is defaulted with the same result and hashes as its v1alpha1 form, at either path', async () => {
  const outs = [];
  for (const [path, version] of [['/mutate-apps-kruise-io-sidecarset', 'v1beta1'], ['/mutate-apps-kruise-io-sidecarset', 'v1alpha1'], ['/mutate-apps-kruise-io-v1alpha1-sidecarset', 'v1beta1']] as const) {
    const obj = { apiVersion: `apps.kruise.io/${version}`, kind: 'SidecarSet', ...structuredClone(sidecarSet) };
    const r = await admit(path, { kind: kind(version, 'SidecarSet'), resource: resource(version, 'sidecarsets'), object: obj });
    const out = fjp.applyPatch(structuredClone(obj), decodePatch(r.patch)).newDocument as any;
    delete out.apiVersion;
    outs.push(out);
  }
  assert.ok(outs[0].metadata.annotations['kruise.io/sidecarset-hash']);
  assert.deepEqual(outs[1], outs[0]);
  assert.deepEqual(outs[2], outs[0]);
});

test('v1beta1 defaulting keeps spec.customVersion and the namespaceSelector (no v1alpha1 field comes back)', async () => {
  const obj = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', ...structuredClone(sidecarSet) } as any;
  obj.spec = { ...obj.spec, customVersion: 'v9', namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'default' } } };
  const r = await admit('/mutate-apps-kruise-io-sidecarset', { kind: kind('v1beta1', 'SidecarSet'), resource: resource('v1beta1', 'sidecarsets'), object: obj });
  const out = fjp.applyPatch(structuredClone(obj), decodePatch(r.patch)).newDocument as any;
  assert.equal(out.spec.customVersion, 'v9');
  assert.deepEqual(out.spec.namespaceSelector, { matchLabels: { 'kubernetes.io/metadata.name': 'default' } });
  assert.equal(out.spec.namespace, undefined);
  assert.equal(out.metadata.labels?.['apps.kruise.io/sidecarset-custom-version'], undefined);
  assert.match(out.metadata.annotations['kruise.io/sidecarset-hash'], /^[a-z0-9]{64}$/);
});

test('a SidecarSet review in another version is refused with 400 unsupported version', async () => {
  const r = await admit('/mutate-apps-kruise-io-sidecarset', { kind: kind('v2', 'SidecarSet'), resource: resource('v2', 'sidecarsets'), object: sidecarSet });
  assert.equal(r.status.code, 400);
  assert.equal(r.status.message, 'unsupported version: v2');
});

test('v1.9 validation: a v1alpha1 namespace next to a namespaceSelector is allowed (namespace wins after conversion)', async () => {
  const obj = { ...sidecarSet, spec: { ...sidecarSet.spec, namespace: 'default', namespaceSelector: { matchLabels: { env: 'prod' } } } };
  const r = await admit('/validate-apps-kruise-io-sidecarset', { kind: kind('v1alpha1', 'SidecarSet'), resource: resource('v1alpha1', 'sidecarsets'), object: obj });
  assert.equal(r.allowed, true, JSON.stringify(r.status));
});

test('v1.9 validation sees other SidecarSets as v1beta1: a namespace-scoped twin conflicts, one in another namespace does not', async () => {
  const other = (ns: string) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'other' }, spec: { ...sidecarSet.spec, namespace: ns } });
  const obj = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'log' }, spec: { ...sidecarSet.spec, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'default' } } } };
  for (const [ns, allowed] of [['default', false], ['elsewhere', true]] as const) {
    const { app } = testApp(routesWith([other(ns)]));
    const r = (await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-sidecarset', payload: review({ kind: kind('v1beta1', 'SidecarSet'), resource: resource('v1beta1', 'sidecarsets'), object: obj }) })).json().response;
    assert.equal(r.allowed, allowed, `${ns}: ${JSON.stringify(r.status)}`);
    if (!allowed) assert.match(r.status.message, /container agent already exist in other/);
  }
});

test('ImagePullJob defaulting adds the deletion-protection finalizer on a v1alpha1 CREATE only', async () => {
  const job = { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1' } };
  const finalizers = async (version: string) => {
    const r = await admit('/mutate-apps-kruise-io-imagepulljob', { kind: kind(version, 'ImagePullJob'), resource: resource(version, 'imagepulljobs'), namespace: 'default', object: job });
    return (fjp.applyPatch(structuredClone(job), decodePatch(r.patch)).newDocument as any).metadata.finalizers;
  };
  assert.deepEqual(await finalizers('v1alpha1'), ['apps.kruise.io/deletion-protection']);
  assert.equal(await finalizers('v1beta1'), undefined);
});

test('ImageListPullJob defaulting is the same in both versions and adds no finalizer', async () => {
  const job = { metadata: { name: 'l', namespace: 'default' }, spec: { images: ['nginx:1', 'busybox:1.36'] } };
  const outs = [];
  for (const version of ['v1alpha1', 'v1beta1']) {
    const r = await admit('/mutate-apps-kruise-io-imagelistpulljob', { kind: kind(version, 'ImageListPullJob'), resource: resource(version, 'imagelistpulljobs'), namespace: 'default', object: job });
    outs.push(fjp.applyPatch(structuredClone(job), decodePatch(r.patch)).newDocument as any);
  }
  assert.deepEqual(outs[0], { ...job, spec: { ...job.spec, completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } } });
  assert.deepEqual(outs[1], outs[0]);
});

test('ImageListPullJob validation answers 400 with upstream\'s message in both versions', async () => {
  for (const version of ['v1alpha1', 'v1beta1']) {
    const r = await admit('/validate-apps-kruise-io-imagelistpulljob', { kind: kind(version, 'ImageListPullJob'), resource: resource(version, 'imagelistpulljobs'), namespace: 'default',
      object: { metadata: { name: 'l', namespace: 'default' }, spec: { images: ['nginx:1', 'nginx:1'], completionPolicy: { type: 'Always' } } } });
    assert.equal(r.status.code, 400);
    assert.match(r.status.message, /images cannot have duplicate values/);
  }
});

for (const path of ['/mutate-apps-kruise-io-imagelistpulljob', '/validate-apps-kruise-io-imagelistpulljob', '/mutate-apps-kruise-io-imagepulljob', '/validate-apps-kruise-io-imagepulljob', '/mutate-apps-kruise-io-nodeimage', '/validate-apps-kruise-io-nodeimage']) {
  test(`${path}: another version is refused with 400 unsupported version, after the gates`, async () => {
    const r = await admit(path, { kind: kind('v1', 'X'), resource: resource('v1', 'x'), object: { metadata: { name: 'x' } } });
    assert.equal(r.status.code, 400);
    assert.equal(r.status.message, 'unsupported version: v1');
  });
}

test('a v1beta1 NodeImage with pull-secret mode batch is admitted', async () => {
  const ni = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', metadata: { name: 'n' }, spec: { images: { nginx: { pullSecrets: [{ namespace: 'kruise-daemon-config', name: 's', mode: 'batch' }], tags: [{ tag: '1', createdAt: '2026-01-02T03:04:05Z', pullPolicy: { ttlSecondsAfterFinished: 300 } }] } } } };
  const r = await admit('/validate-apps-kruise-io-nodeimage', { kind: kind('v1beta1', 'NodeImage'), resource: resource('v1beta1', 'nodeimages'), object: ni });
  assert.equal(r.allowed, true, JSON.stringify(r.status));
});

test('/mutate-pod injects a v1beta1 SidecarSet from the cache exactly as its v1alpha1 form (namespace and custom version included)', async () => {
  const alpha = {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name: 'log', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v7' }, annotations: { 'kruise.io/sidecarset-hash': 'h', 'kruise.io/sidecarset-hash-without-image': 'w' } },
    spec: { namespace: 'default', selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'RollingUpdate' }, containers: [defaulted] },
  };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
  const outs = [];
  for (const cached of [alpha, sidecarSetCacheForm(sidecarSetToV1beta1(alpha as never) as never)]) {
    const { app } = testApp(routesWith([cached]));
    const r = (await app.inject({ method: 'POST', url: '/mutate-pod', payload: review({ namespace: 'default', resource: { group: '', version: 'v1', resource: 'pods' }, object: pod }) })).json().response;
    outs.push(fjp.applyPatch(structuredClone(pod), decodePatch(r.patch)).newDocument as any);
  }
  assert.deepEqual(outs[0].spec.containers.map((c: any) => c.name), ['agent', 'app']);
  assert.deepEqual(outs[1], outs[0]);
  // …and a pod of another namespace gets nothing from either.
  for (const cached of [alpha, sidecarSetCacheForm(sidecarSetToV1beta1(alpha as never) as never)]) {
    const { app } = testApp(routesWith([cached]));
    const other = { ...pod, metadata: { ...pod.metadata, namespace: 'elsewhere' } };
    const r = (await app.inject({ method: 'POST', url: '/mutate-pod', payload: review({ namespace: 'elsewhere', resource: { group: '', version: 'v1', resource: 'pods' }, object: other }) })).json().response;
    assert.equal(r.patch, undefined);
  }
});

test('the validating SidecarSet webhook does not refuse another version outright: the empty object it decodes fails validation', async () => {
  const r = await admit('/validate-apps-kruise-io-sidecarset', { kind: kind('v2', 'SidecarSet'), resource: resource('v2', 'sidecarsets'), object: sidecarSet });
  assert.equal(r.allowed, false);
  assert.equal(r.status.code, 403);
  assert.doesNotMatch(r.status.message, /unsupported version/);
});
