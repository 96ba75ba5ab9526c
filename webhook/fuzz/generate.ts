// The fuzzer's inputs, seeded: valid fixtures of every route with random node replacements or deletions, random
// bodies, and shapes aimed at cost and depth (review L1, C1): objects nested past the depth limit, large arrays and
// maps, and the C1 mounts × $(VAR) × env shape at small scale. Shared by webhook/fuzz.test.ts (100,000 reviews) and
// bench/fuzz/run.ts (1,000,000).
import { applyExtremes } from '../../shared/testing/fuzz-extremes.js';
import { COST_CASES } from './cost-cases.js';

const KEYS = ['metadata', 'spec', 'name', 'namespace', 'labels', 'annotations', 'containers', 'initContainers', 'image', 'env', 'volumes', 'selector',
  'matchLabels', 'podName', 'images', 'tags', 'tag', 'createdAt', 'pullPolicy', 'resource', 'targets', 'x', '', 'constructor', 'toString', 'hasOwnProperty',
  'volumeMounts', 'mountPath', 'subPathExpr', 'probes', 'probe', 'markerPolicy', 'httpGet', 'port'];

type Random = () => number;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

export function randomValue(r: Random, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 6 : 8));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return Math.floor((r() - 0.5) * 2 ** (r() * 60));
    case 3: return r() * 1e6 - 5e5;
    case 4: return pick(r, ['', 'a', 'nginx:1.25', 'Always', 'CREATE', '10%', 'ns/name', '\u0000', 'ü', 'x'.repeat(300), '$(A)/$(B)', 'data']);
    case 5: return pick(r, KEYS);
    case 6: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) o[pick(r, KEYS)] = randomValue(r, depth + 1);
      return o;
    }
  }
}

/** Replaces or deletes one randomly chosen node of a JSON tree (in place); `value` makes the replacement. */
export function mutate(root: unknown, r: Random, value: () => unknown = () => randomValue(r, 2)): void {
  let node = root as Record<string, unknown>;
  for (let depth = 0; depth < 8; depth++) {
    if (typeof node !== 'object' || node === null) return;
    const keys = Object.keys(node);
    if (keys.length === 0) return;
    const key = pick(r, keys);
    const child = node[key];
    if (r() < 0.35 || typeof child !== 'object' || child === null) {
      if (r() < 0.25) {
        if (Array.isArray(node)) node.splice(Number(key), 1);
        else delete node[key];
      } else node[key] = value();
      return;
    }
    node = child as Record<string, unknown>;
  }
}

const pod = {
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' },
    // Owned by the CloneSet the fuzz WorkloadSpread targets, so /mutate-pod's placement step runs on every review.
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'cs-uid', controller: true }] },
  spec: {
    nodeName: 'n1',
    containers: [{ name: 'app', image: 'nginx:1.25', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], volumeMounts: [{ name: 'data', mountPath: '/data', subPathExpr: '$(A)/$(B)' }] }],
    volumes: [{ name: 'data', emptyDir: {} }],
  },
  status: { phase: 'Running', containerStatuses: [{ name: 'app', containerID: 'containerd://abc', restartCount: 0 }] },
};

/** A fixture's request kind when it is not apps.kruise.io/v1alpha1 (or v1 Pod), and whether it is sent mostly as DELETE. */
interface FuzzFixture { kind: string; object: unknown; group?: string; version?: string; deletes?: boolean }

const protectedBy = (value: string, extra: Record<string, unknown> = {}) =>
  ({ metadata: { name: 'p', namespace: 'default', labels: { 'policy.kruise.io/delete-protection': value } }, ...extra });
const CRD = protectedBy('Cascading', { spec: { group: 'demo.io', names: { plural: 'widgets', kind: 'Widget', listKind: 'WidgetList' }, versions: [{ name: 'v1', storage: true }] } });

/** One valid object per route (the fixtures the mutations start from). */
/**
 * The WorkloadSpread of the fuzz caches (webhook/fuzz/run.ts) and the validate fixture: two subsets, one limited, with
 * a label patch. No tolerations or node terms: placing a pod twice appends those again (as upstream does), which the
 * fuzzer's idempotence check of /mutate-pod would rightly count against the pod webhook.
 */
export const FUZZ_WORKLOADSPREAD = {
  metadata: { name: 'ws', namespace: 'default', uid: 'ws-uid', resourceVersion: '5' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' },
    subsets: [
      { name: 'a', maxReplicas: 3, patch: { metadata: { labels: { subset: 'a' } } } },
      { name: 'b', preferredNodeSelectorTerms: [] },
    ],
  },
  status: { versionedSubsetStatuses: { versionIgnored: [{ name: 'a', replicas: 1, missingReplicas: 2 }, { name: 'b', replicas: 0, missingReplicas: -1 }] } },
};

export const FUZZ_OBJECTS: Readonly<Record<string, FuzzFixture>> = {
  '/validate-namespace': { kind: 'Namespace', group: '', version: 'v1', deletes: true, object: protectedBy('Cascading') },
  '/validate-customresourcedefinition': { kind: 'CustomResourceDefinition', group: 'apiextensions.k8s.io', version: 'v1', deletes: true, object: CRD },
  '/validate-apps-deployment': { kind: 'Deployment', group: 'apps', version: 'v1', deletes: true, object: protectedBy('Cascading', { spec: { replicas: 2 } }) },
  '/validate-apps-replicaset': { kind: 'ReplicaSet', group: 'apps', version: 'v1', deletes: true, object: protectedBy('Always', { spec: { replicas: 0 } }) },
  '/validate-apps-statefulset': { kind: 'StatefulSet', group: 'apps', version: 'v1', deletes: true, object: protectedBy('Cascading', { spec: { replicas: 0 } }) },
  '/validate-service': { kind: 'Service', group: '', version: 'v1', deletes: true, object: protectedBy('Always') },
  '/validate-ingress': { kind: 'Ingress', group: 'networking.k8s.io', version: 'v1', deletes: true, object: protectedBy('Cascading') },
  '/mutate-pod': { kind: 'Pod', object: pod },
  '/mutate-apps-kruise-io-v1alpha1-sidecarset': { kind: 'SidecarSet', object: { metadata: { name: 's' }, spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'side', image: 'busybox' }] } } },
  '/validate-apps-kruise-io-v1alpha1-sidecarset': { kind: 'SidecarSet', object: { metadata: { name: 's', annotations: {} }, spec: { selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'RollingUpdate' }, containers: [{ name: 'side', image: 'busybox', podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'disabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' } }] } } },
  '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest': { kind: 'ContainerRecreateRequest', object: { metadata: { name: 'c', namespace: 'default' }, spec: { podName: 'web-1', containers: [{ name: 'app' }], strategy: {} } } },
  '/mutate-apps-kruise-io-v1alpha1-imagepulljob': { kind: 'ImagePullJob', object: { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1.25', completionPolicy: {} } } },
  '/validate-apps-kruise-io-v1alpha1-imagepulljob': { kind: 'ImagePullJob', object: { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1.25', completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } } } },
  '/mutate-apps-kruise-io-imagelistpulljob': { kind: 'ImageListPullJob', object: { metadata: { name: 'l', namespace: 'default' }, spec: { images: ['nginx:1.25', 'busybox:1.36'], completionPolicy: {} } } },
  '/validate-apps-kruise-io-imagelistpulljob': { kind: 'ImageListPullJob', object: { metadata: { name: 'l', namespace: 'default' }, spec: { images: ['nginx:1.25', 'busybox:1.36'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } } } },
  '/mutate-apps-kruise-io-v1alpha1-nodeimage': { kind: 'NodeImage', object: { metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [{ tag: '1.25' }] } } } } },
  '/validate-apps-kruise-io-v1alpha1-nodeimage': { kind: 'NodeImage', object: { metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [{ tag: '1.25', createdAt: '2026-01-01T00:00:00Z', pullPolicy: { ttlSecondsAfterFinished: 300 } }] } } } } },
  '/mutate-apps-kruise-io-v1alpha1-cloneset': { kind: 'CloneSet', object: { metadata: { name: 'cs', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } } } } },
  '/validate-apps-kruise-io-v1alpha1-cloneset': { kind: 'CloneSet', object: { metadata: { name: 'cs', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } } } } },
  '/validate-apps-kruise-io-v1alpha1-workloadspread': { kind: 'WorkloadSpread', object: FUZZ_WORKLOADSPREAD },
  '/validate-pod': { kind: 'Pod', object: { ...pod, metadata: { ...pod.metadata, annotations: { 'kruise.io/related-pub': 'pub', 'apps.kruise.io/matched-workloadspread': '{"name":"ws","subset":"a"}' },
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'cs-uid', controller: true }] }, status: { ...pod.status, conditions: [{ type: 'Ready', status: 'True' }] } } },
  '/validate-policy-kruise-io-podunavailablebudget': { kind: 'PodUnavailableBudget', object: { metadata: { name: 'p2', namespace: 'default', annotations: { 'kruise.io/pub-protect-operations': 'DELETE,EVICT' } }, spec: { selector: { matchLabels: { app: 'web', tier: 'x' } }, maxUnavailable: '25%' } } },
  '/validate-apps-kruise-io-podprobemarker': { kind: 'PodProbeMarker', object: { metadata: { name: 'ppm', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } }, probes: [
    { name: 'healthy', containerName: 'app', probe: { exec: { command: ['/bin/sh', '-c', 'true'] }, periodSeconds: 5 }, podConditionType: 'game.kruise.io/healthy', markerPolicy: [{ state: 'Succeeded', labels: { healthy: 'true' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } }] },
    { name: 'web', containerName: 'app', probe: { httpGet: { path: '/healthz?x=1', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: '1' }] } }, podConditionType: 'game.kruise.io/web' },
    { name: 'tcp', containerName: 'app', probe: { tcpSocket: { port: 8080 } }, markerPolicy: [{ state: 'Failed', labels: { tcp: 'down' } }] },
  ] } } },
  '/validate-apps-kruise-io-v1alpha1-resourcedistribution': { kind: 'ResourceDistribution', object: { metadata: { name: 'rd' }, spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }, targets: { allNamespaces: true } } } },
};
export const FUZZ_POD = pod;

/** Objects /convert is asked to convert (every kind with a conversion), in the version they are stored in. */
const CONVERSION_OBJECTS: readonly { apiVersion: string; kind: string; object: Record<string, unknown> }[] = [
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', object: { metadata: { name: 's', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v1' } }, spec: { namespace: 'default', selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'side', image: 'busybox', resources: { limits: { cpu: '100m' } } }] } } },
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', object: { metadata: { name: 's' }, spec: { customVersion: 'v2', namespaceSelector: { matchLabels: { a: 'b' } }, containers: [{ name: 'side', image: 'busybox' }] } } },
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', object: { metadata: { name: 'n1' }, spec: { images: { nginx: { pullSecrets: [{ namespace: 'kruise-daemon-config', name: 's', mode: 'batch' }], tags: [{ tag: '1.25' }] } } } } },
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', object: { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1.25', parallelism: 2, completionPolicy: {} } } },
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImageListPullJob', object: { metadata: { name: 'l', namespace: 'default' }, spec: { images: ['nginx:1.25'], completionPolicy: {} } } },
];
const CONVERSION_VERSIONS = ['apps.kruise.io/v1beta1', 'apps.kruise.io/v1alpha1', 'apps.kruise.io/v2', ''];

const paths = [...Object.keys(FUZZ_OBJECTS), '/convert'];
/** The other path of each handler (v1.9's un-versioned paths next to v1.8's), so that every route of makeRoutes is hit. */
export const ROUTE_ALIASES: Readonly<Record<string, string>> = {
  '/mutate-apps-kruise-io-v1alpha1-sidecarset': '/mutate-apps-kruise-io-sidecarset',
  '/validate-apps-kruise-io-v1alpha1-sidecarset': '/validate-apps-kruise-io-sidecarset',
  '/mutate-apps-kruise-io-v1alpha1-imagepulljob': '/mutate-apps-kruise-io-imagepulljob',
  '/validate-apps-kruise-io-v1alpha1-imagepulljob': '/validate-apps-kruise-io-imagepulljob',
  '/mutate-apps-kruise-io-imagelistpulljob': '/mutate-apps-kruise-io-v1alpha1-imagelistpulljob',
  '/validate-apps-kruise-io-imagelistpulljob': '/validate-apps-kruise-io-v1alpha1-imagelistpulljob',
  '/mutate-apps-kruise-io-v1alpha1-nodeimage': '/mutate-apps-kruise-io-nodeimage',
  '/validate-apps-kruise-io-v1alpha1-nodeimage': '/validate-apps-kruise-io-nodeimage',
};
const POD_REQUEST = { kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' } };
const OPS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** Stands in for a value too deep for JSON.stringify: spliced into the payload text as `{"a":{"a":…}}`. */
const DEEP = '\u0000deep\u0000';

export interface FuzzCase {
  path: string;
  /** The review as sent (a deep value appears as a placeholder string; `payload` has the real text). */
  body: unknown;
  payload: string;
  /** What the case was generated as: 'random', 'mutated', 'fixture', 'deep', 'large', 'c1'. */
  shape: string;
}

/** An array or map of `n` entries that fits the field it replaces, or random values. */
function large(r: Random, n: number): unknown {
  switch (Math.floor(r() * 4)) {
    case 0: return Array.from({ length: n }, (_, i) => ({ name: `E${i}`, value: 'v' }));
    case 1: return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, `v${i}`]));
    case 2: return Array.from({ length: n }, (_, i) => ({ name: `c${i}`, image: 'x', volumeMounts: [{ name: 'data', mountPath: `/d/${i}`, subPathExpr: '$(A)' }] }));
    default: return Array.from({ length: n }, () => randomValue(r, 3));
  }
}

/** A ConversionReview of one to three objects, mutated, with extremes, deep or missing their kind at times. */
function conversionCase(r: Random, i: number): FuzzCase {
  const objects: unknown[] = Array.from({ length: 1 + Math.floor(r() * 3) }, () => {
    const c = pick(r, CONVERSION_OBJECTS);
    const o: Record<string, unknown> = { apiVersion: c.apiVersion, kind: c.kind, ...structuredClone(c.object) };
    if (r() < 0.3) applyExtremes(c.kind, o, r);
    if (r() < 0.2) mutate(o, r);
    if (r() < 0.05) delete o[pick(r, ['kind', 'apiVersion'])];
    return o;
  });
  const body = { apiVersion: r() < 0.8 ? 'apiextensions.k8s.io/v1' : 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', request: { uid: `conv-${i}`, desiredAPIVersion: pick(r, CONVERSION_VERSIONS), objects } };
  if (r() < 0.02) {
    // Deep, and without a kind at times (review N-L1: quoted before the depth check).
    const o = objects[0] as Record<string, unknown>;
    if (r() < 0.5) delete o.kind;
    o.spec = DEEP;
    return { path: '/convert', body, payload: JSON.stringify(body).replace(JSON.stringify(DEEP), `${'{"a":'.repeat(9_999)}{}${'}'.repeat(9_999)}`), shape: 'deep' };
  }
  if (r() < 0.1) mutate(body, r);
  return { path: '/convert', body, payload: JSON.stringify(body), shape: 'convert' };
}

/** The review for case `i`. Deep and size shapes are a few percent of cases: they are the slow ones. */
export function generate(r: Random, i: number): FuzzCase {
  const drawn = pick(r, paths);
  if (drawn === '/convert') return conversionCase(r, i);
  const { kind, object, ...fixture } = FUZZ_OBJECTS[drawn]!;
  const path = ROUTE_ALIASES[drawn] !== undefined && r() < 0.3 ? ROUTE_ALIASES[drawn] : drawn;
  const group = fixture.group ?? (kind === 'Pod' ? '' : 'apps.kruise.io');
  const version = fixture.version ?? (kind === 'Pod' ? 'v1' : 'v1alpha1');
  // A deletion route sees DELETE with the object in oldObject (object kept too: the cost check measures reads of both).
  const operation = fixture.deletes && r() < 0.8 ? 'DELETE' : OPS[Math.floor(r() * (r() < 0.8 ? 2 : 4))];
  const request: Record<string, unknown> = {
    uid: `uid-${i}`,
    kind: { group, version, kind },
    resource: { group, version, resource: kind === 'Pod' ? 'pods' : `${kind.toLowerCase()}s` },
    namespace: 'default',
    operation,
    userInfo: { username: 'fuzz' },
    object: structuredClone(object),
    ...(r() < (operation === 'DELETE' ? 0.9 : 0.4) ? { oldObject: structuredClone(object) } : {}),
  };
  const body = { apiVersion: r() < 0.5 ? 'admission.k8s.io/v1' : 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request };
  const done = (shape: string, b: unknown = body, deepLevels = 0): FuzzCase => {
    let payload = JSON.stringify(b);
    if (deepLevels > 0) payload = payload.replace(JSON.stringify(DEEP), `${'{"a":'.repeat(deepLevels - 1)}{}${'}'.repeat(deepLevels - 1)}`);
    return { path, body: b, payload, shape };
  };
  const roll = r();
  if (roll < 0.05) return done('random', randomValue(r, 0));
  if (roll < 0.055) {
    // Past the depth limit (128) by a little or by a lot, somewhere in the object (or oldObject).
    mutate(r() < 0.85 ? request.object : request, r, () => DEEP);
    return done('deep', body, pick(r, [129, 130, 200, 2_000, 10_000]));
  }
  if (roll < 0.06) {
    mutate(request.object, r, () => large(r, pick(r, [200, 1_000, 5_000])));
    return done('large');
  }
  if (roll < 0.065) {
    // The C1 shapes at small scale, on /mutate-pod whatever route was drawn.
    const c = pick(r, COST_CASES);
    const review = { ...body, request: { ...request, ...POD_REQUEST, operation: 'CREATE', object: c.pod(2 + Math.floor(r() * 20)) } };
    return { ...done('c1', review), path: '/mutate-pod' };
  }
  if (roll < 0.2) {
    // Numeric extremes, long names and lists where this kind reads them (quantities, int-or-string, replicas, …).
    applyExtremes(kind, request.object, r);
    if (request.oldObject && r() < 0.5) applyExtremes(kind, request.oldObject, r);
    return done('numeric');
  }
  const rounds = roll < 0.3 ? 1 : roll < 0.7 ? 2 + Math.floor(r() * 3) : 0;
  for (let k = 0; k < rounds; k++) mutate(r() < 0.85 ? (r() < 0.9 ? request.object : body) : body, r);
  return done(rounds ? 'mutated' : 'fixture');
}
