// POST /convert through the in-process app (buildApp): ConversionReview v1 in and out, as controller-runtime v0.20's
// handler answers (spec/openkruise-v1.9.md §2.3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from '../../shared/log.js';
import { buildApp } from '../app.js';
import { byteBudget } from '../admission/byte-budget.js';
import { createMetrics } from '../metrics.js';
import { testApp } from '../test-helpers.js';
import { CONVERSION_BODY_LIMIT } from './route.js';

const A = 'apps.kruise.io/v1alpha1';
const B = 'apps.kruise.io/v1beta1';
const CV = 'apps.kruise.io/sidecarset-custom-version';
const NS = 'kubernetes.io/metadata.name';

const conversionReview = (desiredAPIVersion: string, objects: unknown[], uid = 'uid-7') =>
  ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } });

async function convert(payload: unknown, headers: Record<string, string> = {}) {
  const { app, metrics } = testApp([]);
  const res = await app.inject({ method: 'POST', url: '/convert', payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, text: res.body, body: res.body ? (JSON.parse(res.body) as any) : undefined, metrics };
}

const alpha = (name: string, spec: object, labels?: Record<string, string>) =>
  ({ apiVersion: A, kind: 'SidecarSet', metadata: { name, uid: `u-${name}`, resourceVersion: '12', ...(labels ? { labels } : {}) }, spec, status: { matchedPods: 1, updatedPods: 1, readyPods: 1 } });

test('a SidecarSet list is converted v1alpha1 → v1beta1 in order, with the envelope and uid echoed and a Success result', async () => {
  const r = await convert(conversionReview(B, [alpha('a', { namespace: 'ns1', containers: [{ name: 'c', image: 'i' }] }, { [CV]: 'v1' }), alpha('b', { namespaceSelector: { matchLabels: { x: 'y' } } })]));
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    kind: 'ConversionReview',
    apiVersion: 'apiextensions.k8s.io/v1',
    response: {
      uid: 'uid-7',
      convertedObjects: [
        { apiVersion: B, kind: 'SidecarSet', metadata: { name: 'a', uid: 'u-a', resourceVersion: '12' },
          spec: { containers: [{ name: 'c', image: 'i' }], namespaceSelector: { matchLabels: { [NS]: 'ns1' } }, customVersion: 'v1' }, status: { matchedPods: 1, updatedPods: 1, readyPods: 1 } },
        { apiVersion: B, kind: 'SidecarSet', metadata: { name: 'b', uid: 'u-b', resourceVersion: '12' }, spec: { namespaceSelector: { matchLabels: { x: 'y' } } }, status: { matchedPods: 1, updatedPods: 1, readyPods: 1 } },
      ],
      result: { metadata: {}, status: 'Success' },
    },
  });
  assert.equal((r.body as Record<string, unknown>).request, undefined);
});

test('v1beta1 → v1alpha1 writes customVersion back as the label', async () => {
  const r = await convert(conversionReview(A, [{ apiVersion: B, kind: 'SidecarSet', metadata: { name: 'a' }, spec: { customVersion: 'v2' } }]));
  assert.deepEqual(r.body.response.convertedObjects, [{ apiVersion: A, kind: 'SidecarSet', metadata: { name: 'a', labels: { [CV]: 'v2' } }, spec: {} }]);
});

test('a v1beta1 ConversionReview is answered in its own apiVersion', async () => {
  const r = await convert({ ...conversionReview(A, [{ apiVersion: B, kind: 'SidecarSet', metadata: { name: 'a' } }]), apiVersion: 'apiextensions.k8s.io/v1beta1' });
  assert.equal(r.body.apiVersion, 'apiextensions.k8s.io/v1beta1');
  assert.equal(r.body.response.result.status, 'Success');
});

test('NodeImage v1beta1 → v1alpha1 drops the pull-secret mode; ImagePullJob only changes apiVersion', async () => {
  const ni = { apiVersion: B, kind: 'NodeImage', metadata: { name: 'n' }, spec: { images: { nginx: { pullSecrets: [{ namespace: 'kruise-daemon-config', name: 's', mode: 'batch' }], tags: [{ tag: '1' }] } } } };
  const ipj = { apiVersion: B, kind: 'ImagePullJob', metadata: { name: 'j', namespace: 'x' }, spec: { image: 'nginx', completionPolicy: {} } };
  const r = await convert(conversionReview(A, [ni, ipj]));
  assert.deepEqual(r.body.response.convertedObjects, [
    { ...ni, apiVersion: A, spec: { images: { nginx: { pullSecrets: [{ namespace: 'kruise-daemon-config', name: 's' }], tags: [{ tag: '1' }] } } } },
    { ...ipj, apiVersion: A },
  ]);
});

const failures: { name: string; desired: string; objects: unknown[]; message: string | RegExp }[] = [
  { name: 'a desired version the scheme does not have', desired: 'apps.kruise.io/v2', objects: [alpha('a', {})],
    message: 'no kind "SidecarSet" is registered for version "apps.kruise.io/v2" in scheme "pkg/runtime/scheme.go:100"' },
  { name: 'an object of an unknown kind', desired: B, objects: [{ apiVersion: A, kind: 'CloneSetX', metadata: { name: 'a' } }],
    message: 'no kind "CloneSetX" is registered for version "apps.kruise.io/v1alpha1" in scheme "pkg/runtime/scheme.go:100"' },
  { name: 'the same version as the object', desired: B, objects: [{ apiVersion: B, kind: 'SidecarSet', metadata: { name: 'a' } }],
    message: 'conversion is not allowed between same type *v1beta1.SidecarSet' },
  { name: 'an object without kind', desired: B, objects: [{ apiVersion: A, metadata: { name: 'a' } }],
    message: `Object 'Kind' is missing in '{"apiVersion":"apps.kruise.io/v1alpha1","metadata":{"name":"a"}}'` },
  { name: 'an object without apiVersion', desired: B, objects: [{ kind: 'SidecarSet', metadata: { name: 'a' } }],
    message: `Object 'apiVersion' is missing in '{"kind":"SidecarSet","metadata":{"name":"a"}}'` },
  { name: 'an object that is not a JSON object', desired: B, objects: [alpha('a', {}), 7],
    message: /^couldn't get version\/kind; json parse error: json: cannot unmarshal number into Go value of type struct/ },
  { name: 'a wrongly typed field, even in the second object (the whole review fails)', desired: B, objects: [alpha('a', {}), alpha('b', { namespace: 5 })],
    message: 'request.objects[1] is not a valid SidecarSet: spec.namespace: must be a string (got number)' },
  { name: 'a kind that has a single version', desired: 'apps.kruise.io/v1beta1', objects: [{ apiVersion: A, kind: 'ResourceDistribution', metadata: { name: 'r' } }],
    message: 'no kind "ResourceDistribution" is registered for version "apps.kruise.io/v1beta1" in scheme "pkg/runtime/scheme.go:100"' },
];

for (const tc of failures) {
  test(`Failure result, no objects, uid echoed: ${tc.name}`, async () => {
    const r = await convert(conversionReview(tc.desired, tc.objects, 'uid-f'));
    assert.equal(r.status, 200);
    assert.equal(r.body.response.uid, 'uid-f');
    assert.equal(r.body.response.convertedObjects, null);
    assert.equal(r.body.response.result.status, 'Failure');
    assert.deepEqual(r.body.response.result.metadata, {});
    if (typeof tc.message === 'string') assert.equal(r.body.response.result.message, tc.message);
    else assert.match(r.body.response.result.message, tc.message);
  });
}

test('a review with no objects succeeds with convertedObjects null (Go nil slice)', async () => {
  const r = await convert(conversionReview(B, []));
  assert.deepEqual(r.body.response, { uid: 'uid-7', convertedObjects: null, result: { metadata: {}, status: 'Success' } });
});

const malformed: { name: string; payload: unknown }[] = [
  { name: 'a body that is not JSON', payload: '{"apiVersion":' },
  { name: 'no request', payload: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' } },
  { name: 'a null request', payload: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: null } },
  { name: 'objects that are not an array', payload: { kind: 'ConversionReview', request: { uid: 'x', desiredAPIVersion: B, objects: {} } } },
  { name: 'a uid that is not a string', payload: { kind: 'ConversionReview', request: { uid: 5, desiredAPIVersion: B, objects: [] } } },
  { name: 'a JSON array', payload: [] },
];

for (const tc of malformed) {
  test(`a malformed review is a bare 400: ${tc.name}`, async () => {
    const r = await convert(tc.payload);
    assert.equal(r.status, 400);
    assert.equal(r.text, '');
  });
}

test('a body over the limit is refused with 413 before it is buffered whole', async () => {
  const { app } = testApp([]);
  const big = JSON.stringify(conversionReview(B, [{ ...alpha('a', {}), pad: 'x'.repeat(CONVERSION_BODY_LIMIT) }]));
  const res = await app.inject({ method: 'POST', url: '/convert', payload: big, headers: { 'content-type': 'application/json' } });
  assert.equal(res.statusCode, 413);
});

test('the limit never exceeds the byte budget of the server, so a review that fits can always be buffered', async () => {
  const app = buildApp({ log: silentLogger(), routes: [], metrics: createMetrics(), bodyBudget: byteBudget(1024) });
  const review = JSON.stringify(conversionReview(B, [{ ...alpha('a', {}), pad: 'x'.repeat(2000) }]));
  const res = await app.inject({ method: 'POST', url: '/convert', payload: review, headers: { 'content-type': 'application/json' } });
  assert.equal(res.statusCode, 413);
});

test('a body that is not application/json is refused with 415', async () => {
  const { app } = testApp([]);
  const res = await app.inject({ method: 'POST', url: '/convert', payload: 'a: b', headers: { 'content-type': 'application/yaml' } });
  assert.equal(res.statusCode, 415);
});

test('an object nested deeper than the decode limit fails the review instead of the process', async () => {
  // Written as text: building it with JSON.stringify would overflow the test's own stack.
  const deep = `${'{"d":'.repeat(5000)}{}${'}'.repeat(5000)}`;
  const r = await convert(`{"kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"${B}","objects":[{"apiVersion":"${A}","kind":"SidecarSet","spec":${deep}}]}}`);
  assert.equal(r.status, 200);
  assert.equal(r.body.response.result.status, 'Failure');
  assert.match(r.body.response.result.message, /nested more than 128 levels deep/);
});

test('each answer counts in controller-runtime\'s per-webhook request series under /convert', async () => {
  const r = await convert(conversionReview(B, []));
  const text = await r.metrics.registry.metrics();
  assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\} 1/);
});

// Review N-L1: an object without kind was quoted with JSON.stringify before the depth check: at 10,000 levels the
// answer was `internal error: Maximum call stack size exceeded`.
for (const levels of [10_000, 100_000]) {
  test(`an object without kind nested ${levels} levels deep fails with the depth message, not a stack overflow`, async () => {
    const deep = `${'{"d":'.repeat(levels)}{}${'}'.repeat(levels)}`;
    const r = await convert(`{"kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"${B}","objects":[{"apiVersion":"${A}","spec":${deep}}]}}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.response.result.status, 'Failure');
    assert.equal(r.body.response.result.message, 'request.objects[0] is nested more than 128 levels deep (at spec.d.d.d….d.d); no valid object nests that deep');
  });
}

test('a missing kind quotes at most 1 KiB of a large object, cut with …, and small objects whole', async () => {
  const big = { apiVersion: A, metadata: { name: 'a', annotations: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 'v'.repeat(100)])) } };
  const r = await convert(conversionReview(B, [big]));
  const message = r.body.response.result.message as string;
  const quoted = message.slice("Object 'Kind' is missing in '".length, -1);
  assert.equal(quoted, `${JSON.stringify(big).slice(0, 1024)}…`);
  const long = await convert(conversionReview(B, [{ apiVersion: A, spec: 'x'.repeat(5_000_000) }]));
  assert.equal(long.body.response.result.message, `Object 'Kind' is missing in '${`{"apiVersion":"${A}","spec":"${'x'.repeat(5_000_000)}`.slice(0, 1024)}…'`);
});
