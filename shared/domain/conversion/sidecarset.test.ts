// SidecarSet conversion: the vectors of upstream's apis/apps/v1alpha1/conversion_test.go (TestSidecarSet_ConvertTo /
// _ConvertFrom) and the round-trip table of spec/openkruise-v1.9.md §2.2, then round-trip properties over random objects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarSet as V1alpha1 } from '../../api/sidecarset.js';
import type { SidecarSet as V1beta1 } from '../../api/v1beta1/sidecarset.js';
import { deepFreeze } from '../../testing/freeze.js';
import { seededRandom } from '../../testing/random.js';
import { internalSidecarSet, sidecarSetToV1alpha1, sidecarSetToV1beta1 } from './sidecarset.js';

const A = 'apps.kruise.io/v1alpha1';
const B = 'apps.kruise.io/v1beta1';
const CV = 'apps.kruise.io/sidecarset-custom-version';
const NS = 'kubernetes.io/metadata.name';

const containers = [{ name: 'sidecar', image: 'nginx:1.25', podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'enabled' },
  shareVolumeDevicePolicy: { type: 'enabled' }, transferEnv: [{ sourceContainerName: 'main', envName: 'X' }], upgradeStrategy: { upgradeType: 'ColdUpgrade' } }];
const status = { observedGeneration: 3, matchedPods: 4, updatedPods: 2, readyPods: 1, updatedReadyPods: 1, latestRevision: 'rev-1', collisionCount: 0 };
const rest = {
  selector: { matchLabels: { app: 'web' } },
  containers,
  initContainers: [{ name: 'init', image: 'busybox', restartPolicy: 'Always' }],
  volumes: [{ name: 'v', emptyDir: {} }],
  imagePullSecrets: [{ name: 'reg' }],
  updateStrategy: { type: 'RollingUpdate', partition: 1, maxUnavailable: '20%', scatterStrategy: [{ key: 'k', value: 'v' }], priorityStrategy: { weightPriority: [{ weight: 5, matchSelector: { matchLabels: { a: 'b' } } }] } },
  injectionStrategy: { paused: true, revision: { customVersion: 'v0', policy: 'Always' } },
  revisionHistoryLimit: 5,
  patchPodMetadata: [{ annotations: { a: 'b' }, patchPolicy: 'Retain' }],
};

interface Case { name: string; from: object; to: object }

const toV1beta1Cases: Case[] = [
  {
    name: 'convert with all fields populated - Namespace takes priority',
    from: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', uid: 'u1', labels: { [CV]: 'v1.0', team: 'x' }, annotations: { n: 'o' } },
      spec: { ...rest, namespace: 'ns1', namespaceSelector: { matchLabels: { env: 'prod' } } }, status },
    to: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's', uid: 'u1', labels: { team: 'x' }, annotations: { n: 'o' } },
      spec: { ...rest, namespaceSelector: { matchLabels: { [NS]: 'ns1' } }, customVersion: 'v1.0' }, status },
  },
  {
    name: 'convert with namespace only',
    from: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespace: 'ns1', containers } },
    to: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { containers, namespaceSelector: { matchLabels: { [NS]: 'ns1' } } } },
  },
  {
    name: 'convert with namespaceSelector only: copied as is',
    from: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['a'] }] } } },
    to: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['a'] }] } } },
  },
  {
    name: 'an empty namespace leaves the selector as it is and the field goes',
    from: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespace: '', namespaceSelector: { matchLabels: { env: 'prod' } } } },
    to: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespaceSelector: { matchLabels: { env: 'prod' } } } },
  },
  {
    name: 'the custom-version label moves to spec.customVersion; labels left empty are dropped',
    from: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: 'v1.0' } }, spec: {} },
    to: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { customVersion: 'v1.0' } },
  },
  {
    name: 'a custom-version label with an empty value is removed and leaves no customVersion (omitempty)',
    from: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: '', a: 'b' } }, spec: {} },
    to: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's', labels: { a: 'b' } }, spec: {} },
  },
  {
    name: 'fields unknown to both versions are kept',
    from: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: { future: { x: 1 }, containers: [{ name: 'c', newField: true }] }, extra: 1 },
    to: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { future: { x: 1 }, containers: [{ name: 'c', newField: true }] }, extra: 1 },
  },
];

const toV1alpha1Cases: Case[] = [
  {
    name: 'convert from v1beta1 with NamespaceSelector',
    from: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { ...rest, namespaceSelector: { matchLabels: { [NS]: 'ns1' } } }, status },
    to: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: { ...rest, namespaceSelector: { matchLabels: { [NS]: 'ns1' } } }, status },
  },
  {
    name: 'customVersion becomes the label, overwriting a label of another value',
    from: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: 'old', a: 'b' } }, spec: { customVersion: 'v2' } },
    to: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: 'v2', a: 'b' } }, spec: {} },
  },
  {
    name: 'customVersion with no metadata labels creates them',
    from: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { customVersion: 'v1.0' } },
    to: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: 'v1.0' } }, spec: {} },
  },
  {
    name: 'an empty customVersion leaves the labels untouched (a v1beta1 object carrying the label keeps it)',
    from: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: 'v0' } }, spec: { customVersion: '' } },
    to: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: 'v0' } }, spec: {} },
  },
  {
    name: 'spec.namespace is never produced',
    from: { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespace: 'stray' } },
    to: { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: {} },
  },
];

for (const tc of toV1beta1Cases) {
  test(`v1alpha1 → v1beta1: ${tc.name}`, () => assert.deepEqual(sidecarSetToV1beta1(deepFreeze(structuredClone(tc.from)) as V1alpha1), tc.to));
}
for (const tc of toV1alpha1Cases) {
  test(`v1beta1 → v1alpha1: ${tc.name}`, () => assert.deepEqual(sidecarSetToV1alpha1(deepFreeze(structuredClone(tc.from)) as V1beta1), tc.to));
}

// spec §2.2's table: what a v1alpha1 client writes, what is stored, what it reads back.
const roundTrips = [
  { written: { namespace: 'ns1' }, labels: undefined, stored: { namespaceSelector: { matchLabels: { [NS]: 'ns1' } } }, storedLabels: undefined, readBack: { namespaceSelector: { matchLabels: { [NS]: 'ns1' } } }, readLabels: undefined },
  { written: { namespace: 'ns1', namespaceSelector: { matchLabels: { env: 'prod' } } }, labels: undefined, stored: { namespaceSelector: { matchLabels: { [NS]: 'ns1' } } }, storedLabels: undefined, readBack: { namespaceSelector: { matchLabels: { [NS]: 'ns1' } } }, readLabels: undefined },
  { written: {}, labels: { [CV]: 'v1.0' }, stored: { customVersion: 'v1.0' }, storedLabels: undefined, readBack: {}, readLabels: { [CV]: 'v1.0' } },
];
for (const [i, r] of roundTrips.entries()) {
  test(`spec §2.2 round trip ${i + 1}: written ${JSON.stringify(r.written)} ${JSON.stringify(r.labels ?? {})}`, () => {
    const stored = sidecarSetToV1beta1({ apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', ...(r.labels ? { labels: r.labels } : {}) }, spec: r.written });
    assert.deepEqual(stored, { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's', ...(r.storedLabels ? { labels: r.storedLabels } : {}) }, spec: r.stored });
    assert.deepEqual(sidecarSetToV1alpha1(stored), { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', ...(r.readLabels ? { labels: r.readLabels } : {}) }, spec: r.readBack });
  });
}

test('internalSidecarSet converts a v1beta1 object down and returns any other unchanged', () => {
  const beta = { apiVersion: B, kind: 'SidecarSet', metadata: { name: 's' }, spec: { customVersion: 'v1' } };
  assert.deepEqual(internalSidecarSet(beta), { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's', labels: { [CV]: 'v1' } }, spec: {} });
  const alpha = { apiVersion: A, kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespace: 'x' } };
  assert.equal(internalSidecarSet(alpha), alpha);
  const cached: { apiVersion?: string; metadata: object; spec: object } = { metadata: { name: 's' }, spec: {} };
  assert.equal(internalSidecarSet(cached), cached);
});

// Round-trip properties over random objects (seeded: a failure names its seed).
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const maybe = <T>(r: () => number, v: () => T): T | undefined => (r() < 0.5 ? v() : undefined);
const word = (r: () => number) => pick(r, ['a', 'b', 'ns1', 'prod', 'v1.0', 'x-y', 'zz']);
const labelMap = (r: () => number) => Object.fromEntries(Array.from({ length: 1 + Math.floor(r() * 3) }, () => [pick(r, ['app', 'team', 'tier']), word(r)]));
const selector = (r: () => number) => ({ ...(r() < 0.7 ? { matchLabels: labelMap(r) } : {}), ...(r() < 0.3 ? { matchExpressions: [{ key: word(r), operator: 'In', values: [word(r)] }] } : {}) });

function commonSpec(r: () => number): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  const put = (k: string, v: unknown) => { if (v !== undefined) spec[k] = v; };
  put('selector', maybe(r, () => selector(r)));
  put('containers', maybe(r, () => [{ name: word(r), image: word(r), ...(r() < 0.3 ? { resourcesPolicy: { targetContainersMode: 'sum' } } : {}) }]));
  put('volumes', maybe(r, () => [{ name: word(r), emptyDir: {} }]));
  put('updateStrategy', maybe(r, () => ({ type: pick(r, ['RollingUpdate', 'NotUpdate']), paused: r() < 0.5 })));
  put('injectionStrategy', maybe(r, () => ({ revision: { customVersion: word(r) } })));
  put('unknownField', maybe(r, () => ({ keep: word(r) })));
  return spec;
}

function metadata(r: () => number, customVersionLabel: string | undefined): Record<string, unknown> {
  const labels: Record<string, string> = { ...(r() < 0.5 ? labelMap(r) : {}), ...(customVersionLabel !== undefined ? { [CV]: customVersionLabel } : {}) };
  return { name: word(r), uid: `uid-${Math.floor(r() * 1000)}`, ...(Object.keys(labels).length ? { labels } : {}), ...(r() < 0.3 ? { annotations: { n: word(r) } } : {}) };
}

const randomStatus = (r: () => number) => maybe(r, () => ({ matchedPods: Math.floor(r() * 9), updatedPods: 0, readyPods: 0 }));

const randomV1beta1 = (r: () => number): V1beta1 => {
  const spec = commonSpec(r);
  if (r() < 0.5) spec.namespaceSelector = selector(r);
  if (r() < 0.5) spec.customVersion = word(r);
  const s = randomStatus(r);
  return { apiVersion: B, kind: 'SidecarSet', metadata: metadata(r, undefined), spec, ...(s ? { status: s } : {}) } as V1beta1;
};

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

test('property: v1beta1 → v1alpha1 → v1beta1 is the identity for every v1beta1 object without the label', () => {
  for (const seed of SEEDS) {
    const b = deepFreeze(randomV1beta1(seededRandom(seed)));
    assert.deepEqual(sidecarSetToV1beta1(sidecarSetToV1alpha1(b)), b, `seed ${seed}`);
  }
});

test('property: v1alpha1 → v1beta1 → v1alpha1 is the identity without spec.namespace and an empty label value', () => {
  for (const seed of SEEDS) {
    const r = seededRandom(seed);
    const spec = commonSpec(r);
    if (r() < 0.5) spec.namespaceSelector = selector(r);
    const a = deepFreeze({ apiVersion: A, kind: 'SidecarSet', metadata: metadata(r, maybe(r, () => word(r))), spec } as V1alpha1);
    assert.deepEqual(sidecarSetToV1alpha1(sidecarSetToV1beta1(a)), a, `seed ${seed}`);
  }
});

test('property: a v1alpha1 namespace comes back as the metadata.name selector and nothing else changes', () => {
  for (const seed of SEEDS) {
    const r = seededRandom(seed);
    const spec = commonSpec(r);
    const ns = word(r);
    const a = deepFreeze({ apiVersion: A, kind: 'SidecarSet', metadata: metadata(r, undefined), spec: { ...spec, namespace: ns, ...(r() < 0.5 ? { namespaceSelector: selector(r) } : {}) } } as V1alpha1);
    const back = sidecarSetToV1alpha1(sidecarSetToV1beta1(a));
    assert.deepEqual(back, { ...a, spec: { ...spec, namespaceSelector: { matchLabels: { [NS]: ns } } } }, `seed ${seed}`);
  }
});
