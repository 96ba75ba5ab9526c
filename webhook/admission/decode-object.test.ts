import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { AdmissionDeniedError } from '../../shared/errors.js';
import { makeRoutes } from '../handlers/index.js';
import { admissionCaches, staticCache } from '../caches.js';
import { review, testApp } from '../test-helpers.js';
import { testGates } from '../../shared/testing/gates.js';
import {
  ContainerRecreateRequestDecoder,
  decodeObject,
  ImagePullJobDecoder,
  NodeImageDecoder,
  PodDecoder,
  ResourceDistributionDecoder,
  SidecarSetDecoder,
  type ObjectDecoder,
} from './decode-object.js';

const EXAMPLES = new URL('../../e2e/cluster/examples', import.meta.url).pathname;
const decoders: Record<string, ObjectDecoder> = {
  Pod: PodDecoder,
  SidecarSet: SidecarSetDecoder,
  ImagePullJob: ImagePullJobDecoder,
  NodeImage: NodeImageDecoder,
  ContainerRecreateRequest: ContainerRecreateRequestDecoder,
  ResourceDistribution: ResourceDistributionDecoder,
};

/** 400 with every expected fragment in the message. */
function assertRefused(value: unknown, decoder: ObjectDecoder, fragments: string[], which: 'object' | 'oldObject' = 'object') {
  assert.throws(
    () => decodeObject(value, decoder, which),
    (err: unknown) => {
      assert.ok(err instanceof AdmissionDeniedError, `not an AdmissionDeniedError: ${String(err)}`);
      assert.equal(err.code, 400);
      for (const f of fragments) assert.ok(err.message.includes(f), `${JSON.stringify(err.message)} should contain ${JSON.stringify(f)}`);
      return true;
    },
  );
}

describe('every object in the shared examples decodes', () => {
  for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')).sort()) {
    const docs = yaml.loadAll(readFileSync(`${EXAMPLES}/${file}`, 'utf8')) as { kind?: string; spec?: { template?: unknown } }[];
    docs.filter(Boolean).forEach((doc, i) => {
      // A Deployment's pod template has the shape of a pod's metadata + spec.
      const [decoder, value] = doc.kind === 'Deployment' ? [PodDecoder, doc.spec?.template] : [decoders[doc.kind ?? ''], doc];
      if (!decoder) return;
      test(`${file} document ${i} (${doc.kind}) passes unchanged`, () => {
        const before = structuredClone(value);
        assert.equal(decodeObject(value, decoder), value);
        assert.deepEqual(value, before);
      });
    });
  }
});

const nodeImage = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [{ tag: '1.25', pullPolicy: { ttlSecondsAfterFinished: 300 } }] } } } };
const pod = { metadata: { name: 'p', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx', env: [{ name: 'A', value: '1' }], resources: { limits: { cpu: 0.5, memory: '1Gi' } } }] } };

test('a hand-written NodeImage with tags and pull policy passes', () => assert.equal(decodeObject(nodeImage, NodeImageDecoder), nodeImage));
test('unknown fields are ignored at every level and numeric quantities are accepted', () => {
  const p = { ...pod, extra: 1, spec: { ...pod.spec, futureField: 'x', containers: [{ ...pod.spec.containers[0], someNewField: [1] }] } };
  assert.equal(decodeObject(p, PodDecoder), p);
});
test('null fields are treated as absent, as Go decodes them to zero values', () => {
  assert.doesNotThrow(() => decodeObject({ metadata: { labels: null }, spec: { containers: null, volumes: null } }, PodDecoder));
});
test('an absent object passes (the handler decides what absence means)', () => assert.equal(decodeObject(undefined, PodDecoder), undefined));

interface BadCase { name: string; decoder: ObjectDecoder; value: unknown; fragments: string[] }
const bad: BadCase[] = [
  { name: 'a pod that is a string is not a JSON object', decoder: PodDecoder, value: 'pod', fragments: ['request.object must be a JSON object (got string)'] },
  { name: 'pod containers given as a number', decoder: PodDecoder, value: { spec: { containers: 3 } }, fragments: ['spec.containers: must be an array of objects (got number)', 'not a valid Pod'] },
  { name: 'a null entry in pod containers', decoder: PodDecoder, value: { spec: { containers: [null] } }, fragments: ['spec.containers[0]: must be an object (got null)'] },
  { name: 'a pod container name that is a boolean', decoder: PodDecoder, value: { spec: { containers: [{ name: true }] } }, fragments: ['spec.containers[0].name: must be a string (got boolean)'] },
  { name: 'pod env given as an object', decoder: PodDecoder, value: { spec: { initContainers: [{ name: 'i', env: {} }] } }, fragments: ['spec.initContainers[0].env: must be an array of objects (got object)'] },
  { name: 'an env value that is a number', decoder: PodDecoder, value: { spec: { containers: [{ name: 'a', env: [{ name: 'A', value: 1 }] }] } }, fragments: ['spec.containers[0].env[0].value: must be a string (got number)'] },
  { name: 'volumeMounts given as a string', decoder: PodDecoder, value: { spec: { containers: [{ name: 'a', volumeMounts: 'x' }] } }, fragments: ['spec.containers[0].volumeMounts: must be an array of objects (got string)'] },
  { name: 'a label value that is a number', decoder: PodDecoder, value: { metadata: { labels: { app: 1 } } }, fragments: ['metadata.labels[app]: must be a string (got number)'] },
  { name: 'annotations given as an array', decoder: PodDecoder, value: { metadata: { annotations: [] } }, fragments: ['metadata.annotations: must be a map of strings (got array)'] },
  { name: 'pod volumes given as an array of strings', decoder: PodDecoder, value: { spec: { volumes: ['v'] } }, fragments: ['spec.volumes[0]: must be an object (got string)'] },
  { name: 'imagePullSecrets given as a string', decoder: PodDecoder, value: { spec: { imagePullSecrets: 'reg' } }, fragments: ['spec.imagePullSecrets: must be an array of objects (got string)'] },
  { name: 'several problems are reported together, at most three', decoder: PodDecoder, value: { metadata: { labels: 1, annotations: 2 }, spec: { containers: 3, volumes: 4 } }, fragments: ['metadata.labels: must be a map of strings (got number); metadata.annotations: must be a map of strings (got number); spec.containers: must be an array of objects (got number)'] },
  { name: 'sidecarset containers given as a number', decoder: SidecarSetDecoder, value: { spec: { containers: 7 } }, fragments: ['spec.containers: must be an array of objects (got number)', 'not a valid SidecarSet'] },
  { name: 'a sidecarset selector that is a string', decoder: SidecarSetDecoder, value: { spec: { selector: 'app=web' } }, fragments: ['spec.selector: must be an object (got string)'] },
  { name: 'matchLabels with a boolean value', decoder: SidecarSetDecoder, value: { spec: { selector: { matchLabels: { a: true } } } }, fragments: ['spec.selector.matchLabels[a]: must be a string (got boolean)'] },
  { name: 'an updateStrategy that is a string', decoder: SidecarSetDecoder, value: { spec: { updateStrategy: 'RollingUpdate' } }, fragments: ['spec.updateStrategy: must be an object (got string)'] },
  { name: 'a maxUnavailable that is a fraction', decoder: SidecarSetDecoder, value: { spec: { updateStrategy: { maxUnavailable: 0.5 } } }, fragments: ['spec.updateStrategy.maxUnavailable: must be an integer or a string (got number)'] },
  { name: 'an injectionStrategy that is an array', decoder: SidecarSetDecoder, value: { spec: { injectionStrategy: [] } }, fragments: ['spec.injectionStrategy: must be an object (got array)'] },
  { name: 'patchPodMetadata given as an object', decoder: SidecarSetDecoder, value: { spec: { patchPodMetadata: { annotations: {} } } }, fragments: ['spec.patchPodMetadata: must be an array of objects (got object)'] },
  { name: 'sidecarset imagePullSecrets entries that are strings', decoder: SidecarSetDecoder, value: { spec: { imagePullSecrets: ['reg'] } }, fragments: ['spec.imagePullSecrets[0]: must be an object (got string)'] },
  { name: 'a sidecar securityContext that is a number (found by the Go decoder emulation)', decoder: SidecarSetDecoder, value: { spec: { containers: [{ name: 's', securityContext: 3 }] } }, fragments: ['spec.containers[0].securityContext: json: cannot unmarshal number into Go value of type SecurityContext'] },
  { name: 'a sidecar resource quantity that does not parse', decoder: SidecarSetDecoder, value: { spec: { initContainers: [{ name: 's', resources: { limits: { cpu: 'lots' } } }] } }, fragments: ['spec.initContainers[0].resources.limits[cpu]: Invalid value: "lots": quantities must match'] },
  { name: 'an ImagePullJob spec that is a number', decoder: ImagePullJobDecoder, value: { spec: 5 }, fragments: ['spec: must be an object (got number)', 'not a valid ImagePullJob'] },
  { name: 'an ImagePullJob completionPolicy that is a string', decoder: ImagePullJobDecoder, value: { spec: { image: 'x', completionPolicy: 'Always' } }, fragments: ['spec.completionPolicy: must be an object (got string)'] },
  { name: 'ImagePullJob pullSecrets given as a string', decoder: ImagePullJobDecoder, value: { spec: { pullSecrets: 'reg' } }, fragments: ['spec.pullSecrets: must be an array of strings (got string)'] },
  { name: 'NodeImage tags given as a string', decoder: NodeImageDecoder, value: { spec: { images: { nginx: { tags: '1.25' } } } }, fragments: ['spec.images[nginx].tags: must be an array of objects (got string)', 'not a valid NodeImage'] },
  { name: 'NodeImage images given as an array', decoder: NodeImageDecoder, value: { spec: { images: [] } }, fragments: ['spec.images: must be a map of objects (got array)'] },
  { name: 'a NodeImage tag that is a number', decoder: NodeImageDecoder, value: { spec: { images: { nginx: { tags: [{ tag: 1 }] } } } }, fragments: ['spec.images[nginx].tags[0].tag: must be a string (got number)'] },
  { name: 'CRR containers given as an object', decoder: ContainerRecreateRequestDecoder, value: { spec: { podName: 'p', containers: { name: 'a' } } }, fragments: ['spec.containers: must be an array of objects (got object)', 'not a valid ContainerRecreateRequest'] },
  { name: 'a CRR podName that is a number', decoder: ContainerRecreateRequestDecoder, value: { spec: { podName: 1 } }, fragments: ['spec.podName: must be a string (got number)'] },
  { name: 'CRR metadata that is a string', decoder: ContainerRecreateRequestDecoder, value: { metadata: 'x' }, fragments: ['metadata: must be an object (got string)'] },
  { name: 'a ResourceDistribution resource that is a string', decoder: ResourceDistributionDecoder, value: { spec: { resource: 'cm', targets: {} } }, fragments: ['spec.resource: must be an object (got string)', 'not a valid ResourceDistribution'] },
  { name: 'ResourceDistribution target lists that are strings', decoder: ResourceDistributionDecoder, value: { spec: { targets: { includedNamespaces: { list: 'a' } } } }, fragments: ['spec.targets.includedNamespaces.list: must be an array of objects (got string)'] },
];

describe('a wrong-typed field is refused with 400 naming its path and expected type', () => {
  for (const c of bad) test(c.name, () => assertRefused(c.value, c.decoder, c.fragments));
  test('the oldObject is named as such', () => assertRefused({ spec: { containers: 3 } }, PodDecoder, ['request.oldObject is not a valid Pod: spec.containers'], 'oldObject'));
});

describe('through the production routes', () => {
  const caches = admissionCaches(
    { sidecarSets: staticCache([]), namespaces: staticCache([]), revisions: staticCache([]), configMaps: staticCache([]) },
    { fetchPod: async () => undefined, fetchNode: async () => undefined },
  );
  const gates = testGates({ ResourceDistributionGate: true, PodUnavailableBudgetUpdateGate: true });
  const { app } = testApp(makeRoutes({ caches, gates, now: () => new Date('2026-01-01T00:00:00Z'), random: () => 0.5 }));
  const kruise = (kind: string) => ({ group: 'apps.kruise.io', version: 'v1alpha1', kind });
  const post = async (url: string, body: unknown) => (await app.inject({ method: 'POST', url, payload: body as object })).json().response;

  test('validateSidecarSet with containers: 3 answers 400 instead of a 500 TypeError', async () => {
    const r = await post('/validate-apps-kruise-io-v1alpha1-sidecarset', review({ kind: kruise('SidecarSet'), object: { metadata: { name: 's' }, spec: { containers: 3 } } }));
    assert.equal(r.allowed, false);
    assert.equal(r.status.code, 400);
    assert.match(r.status.message, /spec\.containers: must be an array of objects \(got number\)/);
  });
  test('defaultImagePullJob with spec: 5 answers 400 instead of a 500 TypeError', async () => {
    const r = await post('/mutate-apps-kruise-io-v1alpha1-imagepulljob', review({ kind: kruise('ImagePullJob'), object: { metadata: { name: 'j' }, spec: 5 } }));
    assert.deepEqual([r.allowed, r.status.code], [false, 400]);
    assert.match(r.status.message, /spec: must be an object \(got number\)/);
  });
  test('defaultNodeImage with tags given as a string answers 400', async () => {
    const r = await post('/mutate-apps-kruise-io-v1alpha1-nodeimage', review({ kind: kruise('NodeImage'), object: { metadata: { name: 'n' }, spec: { images: { a: { tags: 'x' } } } } }));
    assert.deepEqual([r.allowed, r.status.code], [false, 400]);
    assert.match(r.status.message, /spec\.images\[a\]\.tags: must be an array of objects \(got string\)/);
  });
  test('a wrong-typed oldObject on UPDATE answers 400 naming request.oldObject', async () => {
    const good = { metadata: { name: 'j' }, spec: { image: 'nginx', completionPolicy: { type: 'Always' } } };
    const r = await post('/validate-apps-kruise-io-v1alpha1-imagepulljob', review({ kind: kruise('ImagePullJob'), operation: 'UPDATE', object: good, oldObject: { ...good, spec: { ...good.spec, pullSecrets: 1 } } }));
    assert.deepEqual([r.allowed, r.status.code], [false, 400]);
    assert.match(r.status.message, /^request\.oldObject is not a valid ImagePullJob: spec\.pullSecrets: must be an array of strings \(got number\)$/);
  });
  test('a bad quantity in a CloneSet claim template answers 400 naming the field, not a 500 from the defaulter', async () => {
    const cs = { metadata: { name: 'c' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: { resources: { requests: { storage: '1e99999999999999999999' } } } }] } };
    const r = await post('/mutate-apps-kruise-io-v1alpha1-cloneset', review({ kind: kruise('CloneSet'), object: cs }));
    assert.deepEqual([r.allowed, r.status.code], [false, 400]);
    assert.match(r.status.message, /spec\.volumeClaimTemplates\[0\]\.spec\.resources\.requests\[storage\]: Invalid value: "1e9+": unable to parse quantity's suffix/);
  });
  test('a wrong-typed object on DELETE is not looked at', async () => {
    const r = await post('/validate-apps-kruise-io-v1alpha1-nodeimage', review({ kind: kruise('NodeImage'), operation: 'DELETE', object: { spec: 1 } }));
    assert.equal(r.allowed, true);
  });
});

/** `{ a: { a: … } }` nested `levels` deep (the outer object is level 1), built without recursion. */
function nested(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 1; i < levels; i++) node = (node.a = {}) as Record<string, unknown>;
  return root;
}

const DEEP = '<nested value>';

describe('deep nesting is refused with 400 on every route (review L1)', () => {
  const caches = admissionCaches(
    { sidecarSets: staticCache([]), namespaces: staticCache([]), revisions: staticCache([]), configMaps: staticCache([]) },
    { fetchPod: async () => undefined, fetchNode: async () => undefined },
  );
  const gates = testGates({ ResourceDistributionGate: true, PodUnavailableBudgetUpdateGate: true });
  const routes = makeRoutes({ caches, gates, now: () => new Date('2026-01-01T00:00:00Z'), random: () => 0.5 });
  const { app } = testApp(routes);
  const kinds: Record<string, [string, string]> = {
    '/mutate-pod': ['', 'Pod'],
    '/mutate-apps-kruise-io-v1alpha1-sidecarset': ['apps.kruise.io', 'SidecarSet'],
    '/validate-apps-kruise-io-v1alpha1-sidecarset': ['apps.kruise.io', 'SidecarSet'],
    '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest': ['apps.kruise.io', 'ContainerRecreateRequest'],
    '/mutate-apps-kruise-io-v1alpha1-imagepulljob': ['apps.kruise.io', 'ImagePullJob'],
    '/validate-apps-kruise-io-v1alpha1-imagepulljob': ['apps.kruise.io', 'ImagePullJob'],
    '/mutate-apps-kruise-io-v1alpha1-nodeimage': ['apps.kruise.io', 'NodeImage'],
    '/validate-apps-kruise-io-v1alpha1-nodeimage': ['apps.kruise.io', 'NodeImage'],
    '/validate-apps-kruise-io-v1alpha1-resourcedistribution': ['apps.kruise.io', 'ResourceDistribution'],
    '/validate-apps-kruise-io-podprobemarker': ['apps.kruise.io', 'PodProbeMarker'],
    '/validate-apps-kruise-io-v1alpha1-workloadspread': ['apps.kruise.io', 'WorkloadSpread'],
    '/validate-pod': ['', 'Pod'],
    '/validate-policy-kruise-io-podunavailablebudget': ['policy.kruise.io', 'PodUnavailableBudget'],
    // v1.9's paths (webhook/handlers/paths.ts).
    '/mutate-apps-kruise-io-sidecarset': ['apps.kruise.io', 'SidecarSet'],
    '/validate-apps-kruise-io-sidecarset': ['apps.kruise.io', 'SidecarSet'],
    '/mutate-apps-kruise-io-imagepulljob': ['apps.kruise.io', 'ImagePullJob'],
    '/validate-apps-kruise-io-imagepulljob': ['apps.kruise.io', 'ImagePullJob'],
    '/mutate-apps-kruise-io-imagelistpulljob': ['apps.kruise.io', 'ImageListPullJob'],
    '/validate-apps-kruise-io-imagelistpulljob': ['apps.kruise.io', 'ImageListPullJob'],
    '/mutate-apps-kruise-io-v1alpha1-imagelistpulljob': ['apps.kruise.io', 'ImageListPullJob'],
    '/validate-apps-kruise-io-v1alpha1-imagelistpulljob': ['apps.kruise.io', 'ImageListPullJob'],
    '/mutate-apps-kruise-io-nodeimage': ['apps.kruise.io', 'NodeImage'],
    '/validate-apps-kruise-io-nodeimage': ['apps.kruise.io', 'NodeImage'],
    '/mutate-apps-kruise-io-v1alpha1-cloneset': ['apps.kruise.io', 'CloneSet'],
    '/validate-apps-kruise-io-v1alpha1-cloneset': ['apps.kruise.io', 'CloneSet'],
    // Deletion protection (registered whatever the gate; service and ingress only with it).
    '/validate-namespace': ['', 'Namespace'],
    '/validate-customresourcedefinition': ['', 'CustomResourceDefinition'],
    '/validate-apps-deployment': ['', 'Deployment'],
    '/validate-apps-replicaset': ['', 'ReplicaSet'],
    '/validate-apps-statefulset': ['', 'StatefulSet'],
  };
  test('the table covers every route', () => assert.deepEqual(Object.keys(kinds).sort(), routes.map((r) => r.path).sort()));
  // The deep value sits in a field no decoder knows, as an attacker would put it; 10,000 and 100,000 levels were
  // answered 500 "Maximum call stack size exceeded" by the CRD routes before the limit.
  // The deletion-protection routes decode nothing: they read two fields of a DELETE's oldObject and allow the rest,
  // so a deep value anywhere costs them nothing (checked below).
  const deleteOnly = new Set(['/validate-namespace', '/validate-customresourcedefinition', '/validate-apps-deployment', '/validate-apps-replicaset', '/validate-apps-statefulset']);
  for (const path of deleteOnly) {
    test(`${path}: a DELETE of an object nested 100000 levels deep is answered from its labels`, async () => {
      const oldObject = { metadata: { name: 'x', labels: { a: 'b' } }, spec: { extra: DEEP } };
      const r = await post(path, review({ kind: { group: '', version: 'v1', kind: kinds[path]![1] }, operation: 'DELETE', oldObject }), 100_000);
      assert.deepEqual([r.allowed, r.status?.code], [true, 200]);
    });
  }
  for (const [path, [group, kind]] of Object.entries(kinds).filter(([p]) => !deleteOnly.has(p))) {
    for (const levels of [10_000, 100_000]) {
      test(`${path}: an object nested ${levels} levels deep answers 400`, async () => {
        const object = { metadata: { name: 'x', namespace: 'default' }, spec: { extra: DEEP } };
        const k = { group, version: group ? 'v1alpha1' : 'v1', kind };
        const r = await post(path, review({ kind: k, object, namespace: 'default' }), levels);
        assert.deepEqual([r.allowed, r.status?.code], [false, 400], JSON.stringify(r).slice(0, 300));
        assert.match(r.status.message, /^request\.object is nested more than 128 levels deep \(at spec\.extra\.a\.a….a\.a\)/);
      });
    }
    test(`${path}: a nested oldObject on UPDATE answers 400 naming it`, async () => {
      const object = { metadata: { name: 'x', namespace: 'default' }, spec: {} };
      const k = { group, version: group ? 'v1alpha1' : 'v1', kind };
      const r = await post(path, review({ kind: k, operation: 'UPDATE', object, oldObject: { ...object, spec: { extra: DEEP } }, namespace: 'default' }), 10_000);
      // /mutate-pod admits UPDATE untouched before decoding anything (injection is CREATE-only).
      if (path === '/mutate-pod') return assert.equal(r.allowed, true);
      assert.deepEqual([r.allowed, r.status?.code], [false, 400]);
      assert.match(r.status.message, /^request\.oldObject is nested more than 128 levels deep/);
    });
  }
  // JSON.stringify itself overflows on such values: the deep part is spliced into the review's text.
  const post = async (url: string, body: unknown, levels: number) => {
    const payload = JSON.stringify(body).replace(JSON.stringify(DEEP), `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`);
    return (await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } })).json().response;
  };
});

test('128 levels pass the depth check and 129 do not', () => {
  // Level 1 is the pod, 2 spec, 3 the unknown field's object: nested(126) there makes 128 levels.
  assert.doesNotThrow(() => decodeObject({ spec: { extra: nested(126) } }, PodDecoder));
  assertRefused({ spec: { extra: nested(127) } }, PodDecoder, ['nested more than 128 levels deep (at spec.extra.a.a…', 'no valid Pod nests that deep']);
  assertRefused({ spec: { containers: [{ name: 'a', env: [] }], x: [[nested(126)]] } }, PodDecoder, ['(at spec.x[0][0]….a.a)']);
});
