import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1OwnerReference } from '@kubernetes/client-node';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import { buildCopy, conflictingNamespaces, decodeResource, isControlledByRd, needsUpdate, type CopyObject, type DistributedResource } from './resource.js';

const rd: ResourceDistribution = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'sample', uid: 'rd-uid', generation: 2 }, spec: { resource: {}, targets: {} } };
const cm = (extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { a: '1' }, ...extra });
const decoded = (raw: unknown) => {
  const r = decodeResource(raw);
  if ('error' in r) throw new Error(r.error);
  return r;
};

const decodeCases: { name: string; raw: unknown; error?: RegExp; body?: Record<string, unknown> }[] = [
  { name: 'a ConfigMap keeps data, binaryData and immutable only', raw: cm({ binaryData: { b: 'AA==' }, immutable: true, extra: 'dropped', status: {} }),
    body: { data: { a: '1' }, binaryData: { b: 'AA==' }, immutable: true } },
  { name: 'a Secret keeps data, stringData, type and immutable', raw: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', stringData: { p: 'x' }, data: { q: 'eA==' } },
    body: { data: { q: 'eA==' }, stringData: { p: 'x' }, type: 'Opaque' } },
  { name: 'another group is refused', raw: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } }, error: /only v1 Secret and v1 ConfigMap/ },
  { name: 'another kind is refused', raw: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } }, error: /unsupported resource v1\/Pod/ },
  { name: 'a missing name is refused', raw: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, error: /name is empty/ },
  { name: 'data that is not a map of strings is refused', raw: cm({ data: { a: 1 } }), error: /spec.resource.data has the wrong type/ },
  { name: 'labels that are not strings are refused', raw: cm({ metadata: { name: 'x', labels: { a: true } } }), error: /labels is not a map of strings/ },
  { name: 'a non-object is refused', raw: 'ConfigMap', error: /not an object/ },
  { name: 'a service-account token is not distributed (review H5)', raw: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 't' }, type: 'kubernetes.io/service-account-token' },
    error: /service-account-token is not distributed/ },
];
for (const tc of decodeCases) {
  test(`decodeResource: ${tc.name}`, () => {
    const r = decodeResource(tc.raw);
    if (tc.error) assert.match('error' in r ? r.error : 'decoded', tc.error);
    else assert.deepEqual((r as DistributedResource).body, tc.body);
  });
}

const owned = (refs: V1OwnerReference[]): CopyObject => ({ metadata: { name: 'game-demo', ownerReferences: refs } });
const ref = (o: Partial<V1OwnerReference>): V1OwnerReference => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'sample', uid: 'rd-uid', controller: true, ...o });
const controlCases: { name: string; copy: CopyObject; want: boolean }[] = [
  { name: 'controller ref with the same uid', copy: owned([ref({})]), want: true },
  { name: 'a v1beta1 controller ref of the same RD', copy: owned([ref({ apiVersion: 'apps.kruise.io/v1beta1' })]), want: true },
  { name: 'same name, other uid (a deleted namesake)', copy: owned([ref({ uid: 'old' })]), want: false },
  { name: 'no uid on the ref: by name', copy: owned([ref({ uid: '' })]), want: true },
  { name: 'not the controller', copy: owned([ref({ controller: false })]), want: false },
  { name: 'another kind', copy: owned([ref({ kind: 'Deployment', apiVersion: 'apps/v1' })]), want: false },
  { name: 'no owner at all', copy: { metadata: { name: 'game-demo' } }, want: false },
];
for (const tc of controlCases) test(`isControlledByRd: ${tc.name}`, () => assert.equal(isControlledByRd(tc.copy, rd), tc.want));

const updateCases: { name: string; raw: unknown; copy: CopyObject; want: boolean }[] = [
  { name: 'same data', raw: cm(), copy: { ...cm(), metadata: { name: 'game-demo', labels: { x: 'y' } } }, want: false },
  { name: 'changed data', raw: cm(), copy: cm({ data: { a: '2' } }), want: true },
  { name: 'an added key', raw: cm({ data: { a: '1', b: '2' } }), copy: cm(), want: true },
  { name: 'labels and annotations differ only', raw: cm({ metadata: { name: 'game-demo', labels: { new: 'l' } } }), copy: cm(), want: false },
  { name: 'no data vs empty data', raw: cm({ data: undefined }), copy: cm({ data: {} }), want: false },
  { name: 'Secret stringData as stored data', raw: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { p: 'x' } },
    copy: { metadata: { name: 's' }, data: { p: 'eA==' }, type: 'Opaque' }, want: false },
  { name: 'Secret type defaults to Opaque', raw: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { p: 'eA==' } },
    copy: { metadata: { name: 's' }, data: { p: 'eA==' }, type: 'Opaque' }, want: false },
  { name: 'Secret data edited on the copy', raw: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { p: 'eA==' } },
    copy: { metadata: { name: 's' }, data: { p: 'eQ==' }, type: 'Opaque' }, want: true },
];
for (const tc of updateCases) test(`needsUpdate: ${tc.name}`, () => assert.equal(needsUpdate(tc.copy, decoded(tc.raw)), tc.want));

test('buildCopy for a create: namespace, controller ref, the three annotations', () => {
  const r = decoded(cm({ metadata: { name: 'game-demo', labels: { l: '1' }, annotations: { a: '1' } } }));
  const got = buildCopy(rd, r, 'ns-1', 'h4sh', new Date('2025-01-02T03:04:05.678Z'));
  assert.deepEqual(got, {
    apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' },
    metadata: {
      name: 'game-demo', namespace: 'ns-1', labels: { l: '1' },
      annotations: {
        a: '1',
        'kruise.io/resourcedistribution.resource.hashcode': 'h4sh',
        'kruise.io/resourcedistribution.resource.from': 'sample',
        'kruise.io/resourcedistribution.resource.distributed.timestamp': '2025-01-02T03:04:05Z',
      },
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'sample', uid: 'rd-uid', controller: true, blockOwnerDeletion: true }],
    },
  });
});

test('buildCopy for an update: keeps the copy\'s extra labels/annotations and its own finalizers, the resource wins on shared keys', () => {
  const r = decoded(cm({ metadata: { name: 'game-demo', labels: { l: 'new' }, finalizers: ['b/f'] } }));
  const existing: CopyObject = { metadata: { name: 'game-demo', namespace: 'ns-1', resourceVersion: '7', labels: { l: 'old', mine: 'x' },
    annotations: { 'kruise.io/resourcedistribution.resource.hashcode': 'old', note: 'kept' }, finalizers: ['a/f'] }, data: { a: 'local edit' } };
  const got = buildCopy(rd, r, 'ns-1', 'new-hash', new Date(0), existing);
  assert.deepEqual(got.metadata?.labels, { l: 'new', mine: 'x' });
  assert.equal(got.metadata?.annotations?.note, 'kept');
  assert.equal(got.metadata?.annotations?.['kruise.io/resourcedistribution.resource.hashcode'], 'new-hash');
  assert.deepEqual(got.metadata?.finalizers, ['a/f'], 'the resource\'s finalizer is never copied (review H5)');
  assert.equal(got.metadata?.resourceVersion, undefined, 'an unconditional replace, as upstream');
  assert.deepEqual((got as { data?: unknown }).data, { a: '1' });
});

test('buildCopy: the RD\'s controller reference is the only ownerReference, whatever spec.resource lists (review H5)', () => {
  const r = decoded(cm({ metadata: { name: 'game-demo', finalizers: ['b/f'], ownerReferences: [{ apiVersion: 'v1', kind: 'Foo', name: 'f', uid: 'f-uid' }, ref({ controller: false })] } }));
  const copy = buildCopy(rd, r, 'ns-1', 'h', new Date(0));
  assert.deepEqual((copy.metadata?.ownerReferences ?? []).map((x) => `${x.uid}:${x.controller ?? false}`), ['rd-uid:true']);
  assert.equal(copy.metadata?.finalizers, undefined);
});

test('buildCopy does not share the RD\'s maps with the copy', () => {
  const r = decoded(cm());
  const got = buildCopy(rd, r, 'ns-1', 'h', new Date(0)) as { data: Record<string, string> };
  got.data.a = 'changed';
  assert.equal((r.body.data as Record<string, string>).a, '1');
});

test('conflictingNamespaces reads the ConflictOccurred condition', () => {
  assert.deepEqual(conflictingNamespaces({ ...rd, status: { conditions: [{ type: 'ConflictOccurred', status: 'True', failedNamespace: ['a', 'b'] }] } }), ['a', 'b']);
  assert.deepEqual(conflictingNamespaces(rd), []);
});
