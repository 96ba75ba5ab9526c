// Each route through HTTP (inject) with small stand-ins for the pure functions: the point here is the plumbing —
// gathering, gating, diffing, and how violations and throws become responses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fjp from 'fast-json-patch';
import { AdmissionDeniedError, type Violation } from '../../shared/errors.js';
import { decodePatch, review, testApp, type ReviewOptions } from '../test-helpers.js';
import type { WebhookRoute } from '../admission/route.js';
import { mutatePodRoute } from './mutate-pod.js';
import { mutateSidecarSetRoute } from './mutate-sidecarset.js';
import { validateSidecarSetRoute } from './validate-sidecarset.js';
import { mutateContainerRecreateRequestRoute, type CrrContext } from './mutate-container-recreate-request.js';
import { mutateImagePullJobRoute } from './mutate-image-pull-job.js';
import { validateImagePullJobRoute } from './validate-image-pull-job.js';
import { mutateNodeImageRoute } from './mutate-node-image.js';
import { validateNodeImageRoute } from './validate-node-image.js';
import { validateResourceDistributionRoute } from './validate-resource-distribution.js';

const on = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: true };
const off = { KruiseDaemon: false, ImagePullJobGate: false, ResourceDistributionGate: false };
const badName: Violation = { field: 'metadata.name', type: 'Invalid value', value: 'x_y', detail: 'bad name' };
const rejectNamed = (obj: any): Violation[] => (obj?.metadata?.name === 'bad' ? [badName] : []);
const addLabel = (obj: any) => ({ ...obj, metadata: { ...obj.metadata, labels: { ...(obj.metadata?.labels ?? {}), defaulted: 'true' } } });

async function call(route: WebhookRoute, o: ReviewOptions) {
  const { app } = testApp([route]);
  // Kruise handlers branch on the request's version (spec/openkruise-v1.9.md §2.4): their reviews say v1alpha1.
  const kind = route.path === '/mutate-pod' ? {} : { kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'Any' } };
  const res = await app.inject({ method: 'POST', url: route.path, payload: review({ ...kind, ...o }) });
  assert.equal(res.statusCode, 200);
  return res.json().response as { allowed: boolean; patch?: string; status?: { code: number; message?: string; reason?: string } };
}
const applied = (obj: unknown, patch?: string) => (patch ? fjp.applyPatch(structuredClone(obj), decodePatch(patch)).newDocument : obj);

// --- /mutate-pod ---
const podCtxSeen: unknown[] = [];
const podRoute = mutatePodRoute({
  enabled: true,
  context: (req) => { const ctx = { ns: req.namespace }; podCtxSeen.push(ctx); return ctx; },
  mutate: (pod: any, ctx: any) => {
    if (pod.metadata?.name === 'reject') throw new AdmissionDeniedError('no revision', 403);
    return { ...pod, spec: { ...pod.spec, containers: [...(pod.spec?.containers ?? []), { name: 'sidecar', image: 's:1', env: [{ name: 'NS', value: ctx.ns }] }] } };
  },
});

test('mutate-pod injects through a patch that reproduces the mutated pod and keeps unknown fields', async () => {
  const pod = { metadata: { name: 'p', futureField: 1 }, spec: { containers: [{ name: 'app', image: 'a' }] } };
  const r = await call(podRoute, { namespace: 'default', object: pod, resource: { group: '', version: 'v1', resource: 'pods' } });
  assert.equal(r.allowed, true);
  assert.deepEqual(applied(pod, r.patch), { metadata: { name: 'p', futureField: 1 }, spec: { containers: [{ name: 'app', image: 'a' }, { name: 'sidecar', image: 's:1', env: [{ name: 'NS', value: 'default' }] }] } });
});

const podSkips: { name: string; o: ReviewOptions }[] = [
  { name: 'mutate-pod leaves UPDATE alone (injection is CREATE-only)', o: { operation: 'UPDATE' } },
  { name: 'mutate-pod leaves subresource requests alone', o: { subResource: 'status' } },
  { name: 'mutate-pod leaves other resources alone', o: { resource: { group: '', version: 'v1', resource: 'pods/eviction' } } },
];
for (const tc of podSkips) {
  test(tc.name, async () => {
    podCtxSeen.length = 0;
    const r = await call(podRoute, { ...tc.o, object: { metadata: { name: 'p' } } });
    assert.deepEqual(r, { uid: 'uid-1', allowed: true, status: { code: 200 } });
    assert.equal(podCtxSeen.length, 0, 'no context gathered for a skipped review');
  });
}

test('with FEATURE_GATES PodWebhook=false, mutate-pod admits every pod untouched and gathers nothing', async () => {
  podCtxSeen.length = 0;
  const off = mutatePodRoute({ enabled: false, context: (req) => { podCtxSeen.push(req); return {}; }, mutate: () => { throw new Error('not called'); } });
  const r = await call(off, { namespace: 'default', object: { metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'a' }] } } });
  assert.deepEqual(r, { uid: 'uid-1', allowed: true, status: { code: 200 } });
  assert.equal(podCtxSeen.length, 0);
});

test('mutate-pod reports a purposeful reject from the injector with its code', async () => {
  const r = await call(podRoute, { object: { metadata: { name: 'reject' } } });
  assert.equal(r.allowed, false);
  assert.equal(r.status?.code, 403);
  assert.equal(r.status?.message, 'no revision');
});

test('mutate-pod answers 400 when request.object is not an object', async () => {
  const r = await call(podRoute, { object: 'a string' });
  assert.equal(r.status?.code, 400);
  assert.match(r.status?.message ?? '', /request.object must be a JSON object/);
});

// --- SidecarSet ---
test('mutate-sidecarset returns the defaults as a patch', async () => {
  const obj = { metadata: { name: 's' }, spec: {} };
  const r = await call(mutateSidecarSetRoute({ defaults: addLabel }), { object: obj, kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'SidecarSet' } });
  assert.deepEqual(applied(obj, r.patch), addLabel(obj));
});

test('mutate-sidecarset admits DELETE untouched', async () => {
  const r = await call(mutateSidecarSetRoute({ defaults: addLabel }), { operation: 'DELETE' });
  assert.equal(r.patch, undefined);
});

const ssSeen: { old: unknown; ctx: unknown }[] = [];
const validateSS = validateSidecarSetRoute({
  context: () => ({ marker: 'ctx' }),
  validate: (obj, old, ctx) => { ssSeen.push({ old, ctx }); return rejectNamed(obj); },
});

test('validate-sidecarset denies field errors with 403 Forbidden and the field-error text', async () => {
  const r = await call(validateSS, { object: { metadata: { name: 'bad' } } });
  assert.equal(r.allowed, false);
  assert.equal(r.status?.code, 403);
  assert.equal(r.status?.reason, 'Forbidden');
  assert.equal(r.status?.message, 'metadata.name: Invalid value: "x_y": bad name');
});

test('validate-sidecarset passes oldObject on UPDATE and allows a valid object', async () => {
  ssSeen.length = 0;
  const r = await call(validateSS, { operation: 'UPDATE', object: { metadata: { name: 'ok' } }, oldObject: { metadata: { name: 'ok', generation: 1 } } });
  assert.equal(r.allowed, true);
  assert.equal(r.status?.message, 'allowed to be admitted');
  assert.deepEqual(ssSeen[0], { old: { apiVersion: 'apps.kruise.io/v1alpha1', metadata: { name: 'ok', generation: 1 } }, ctx: { marker: 'ctx' } });
});

// --- ContainerRecreateRequest ---
const pod = { metadata: { name: 'web', namespace: 'ns', uid: 'pod-uid' }, spec: { nodeName: 'n1' } };
const crrFetches: string[] = [];
const crrRoute = (gates: Record<string, boolean>) =>
  mutateContainerRecreateRequestRoute({
    gates,
    fetchPod: async (ns, name) => { crrFetches.push(`pod ${ns}/${name}`); return ns === 'ns' && name === 'web' ? (pod as any) : undefined; },
    fetchNode: async (name) => { crrFetches.push(`node ${name}`); return { metadata: { name, labels: { type: 'virtual-kubelet' } } }; },
    mutate: (obj: any, _old, ctx: CrrContext) => {
      const p = ctx.getPod(obj.metadata.namespace, obj.spec.podName);
      if (!p) throw new AdmissionDeniedError(`no found Pod named ${obj.spec.podName}`, 400);
      const node = ctx.getNode(p.spec!.nodeName!);
      return { ...obj, metadata: { ...obj.metadata, labels: { 'crr.apps.kruise.io/pod-uid': p.metadata!.uid, type: node?.metadata?.labels?.type } } };
    },
  });
const crr = (podName: string) => ({ metadata: { name: 'c', namespace: 'ns' }, spec: { podName } });

test('mutate-crr gathers the pod and its node before the pure mutation', async () => {
  crrFetches.length = 0;
  const r = await call(crrRoute(on), { object: crr('web'), namespace: 'ns' });
  assert.deepEqual(crrFetches, ['pod ns/web', 'node n1']);
  assert.deepEqual((applied(crr('web'), r.patch) as any).metadata.labels, { 'crr.apps.kruise.io/pod-uid': 'pod-uid', type: 'virtual-kubelet' });
});

test('mutate-crr reports a missing pod as 400', async () => {
  const r = await call(crrRoute(on), { object: crr('gone'), namespace: 'ns' });
  assert.equal(r.status?.code, 400);
  assert.equal(r.status?.message, 'no found Pod named gone');
});

test('mutate-crr is refused with 403 when KruiseDaemon is off', async () => {
  const r = await call(crrRoute(off), { object: crr('web') });
  assert.equal(r.status?.code, 403);
  assert.equal(r.status?.message, 'feature-gate KruiseDaemon is not enabled');
});

test('mutate-crr does not fetch the pod on UPDATE', async () => {
  crrFetches.length = 0;
  await call(crrRoute(on), { operation: 'UPDATE', object: crr('web'), oldObject: crr('web') });
  assert.deepEqual(crrFetches, []);
});

// --- ImagePullJob / NodeImage / ResourceDistribution ---
const fixedNow = new Date('2026-01-02T03:04:05Z');
const cases: { name: string; route: WebhookRoute; o: ReviewOptions; code?: number; message?: RegExp; patchedTo?: unknown }[] = [
  { name: 'mutate-imagepulljob defaults a job', route: mutateImagePullJobRoute({ gates: on, defaults: addLabel }), o: { object: { metadata: { name: 'j' } } }, patchedTo: addLabel({ metadata: { name: 'j' } }) },
  { name: 'mutate-imagepulljob is refused when ImagePullJobGate is off', route: mutateImagePullJobRoute({ gates: { ...on, ImagePullJobGate: false }, defaults: addLabel }), o: {}, code: 403, message: /feature-gate ImagePullJobGate is not enabled/ },
  { name: 'validate-imagepulljob answers field errors with 400', route: validateImagePullJobRoute({ gates: on, validate: rejectNamed }), o: { object: { metadata: { name: 'bad' } } }, code: 400, message: /metadata.name: Invalid value/ },
  { name: 'validate-imagepulljob allows a valid job', route: validateImagePullJobRoute({ gates: on, validate: rejectNamed }), o: {}, code: 200 },
  { name: 'validate-imagepulljob is refused when KruiseDaemon is off', route: validateImagePullJobRoute({ gates: off, validate: rejectNamed }), o: {}, code: 403, message: /KruiseDaemon/ },
  { name: 'mutate-nodeimage defaults with the injected clock', route: mutateNodeImageRoute({ gates: on, now: () => fixedNow, defaults: (o: any, now) => ({ ...o, spec: { createdAt: now.toISOString() } }) }), o: { object: { metadata: { name: 'n' } } }, patchedTo: { metadata: { name: 'n' }, spec: { createdAt: '2026-01-02T03:04:05.000Z' } } },
  { name: 'mutate-nodeimage is refused when KruiseDaemon is off', route: mutateNodeImageRoute({ gates: off, now: () => fixedNow, defaults: addLabel }), o: {}, code: 403 },
  { name: 'validate-nodeimage answers field errors with 400', route: validateNodeImageRoute({ gates: on, validate: rejectNamed }), o: { object: { metadata: { name: 'bad' } } }, code: 400 },
  { name: 'validate-nodeimage allows a valid object', route: validateNodeImageRoute({ gates: on, validate: rejectNamed }), o: {}, code: 200 },
  { name: 'validate-resourcedistribution answers field errors with 422', route: validateResourceDistributionRoute({ gates: on, validate: rejectNamed }), o: { object: { metadata: { name: 'bad' } } }, code: 422 },
  { name: 'validate-resourcedistribution allows a valid object', route: validateResourceDistributionRoute({ gates: on, validate: rejectNamed }), o: {}, code: 200 },
  { name: 'validate-resourcedistribution is refused while its gate is off', route: validateResourceDistributionRoute({ gates: off, validate: rejectNamed }), o: {}, code: 403, message: /ResourceDistributionGate/ },
  { name: 'a validator that throws unexpectedly yields a 500 review', route: validateNodeImageRoute({ gates: on, validate: () => { throw new RangeError('boom'); } }), o: {}, code: 500, message: /internal error: boom/ },
];
for (const tc of cases) {
  test(tc.name, async () => {
    const r = await call(tc.route, tc.o);
    if (tc.patchedTo !== undefined) assert.deepEqual(applied(review(tc.o).request.object, r.patch), tc.patchedTo);
    if (tc.code !== undefined) assert.equal(r.status?.code, tc.code);
    if (tc.code !== undefined) assert.equal(r.allowed, tc.code === 200);
    if (tc.message) assert.match(r.status?.message ?? '', tc.message);
  });
}

test('validate-resourcedistribution hands the dry-run outcome of spec.resource to the validator', async () => {
  const dryRuns: unknown[] = [];
  const route = validateResourceDistributionRoute({
    gates: on,
    dryRunCreate: async (res) => { dryRuns.push(res); return 'configmaps "cm" is invalid'; },
    validate: (_o, _old, opts) => (opts.dryRunError ? [{ field: 'spec.resource', type: 'Invalid value', value: 'cm', detail: opts.dryRunError }] : []),
  });
  const r = await call(route, { object: { metadata: { name: 'rd' }, spec: { resource: { kind: 'ConfigMap', metadata: { name: 'cm' } } } } });
  assert.deepEqual(dryRuns, [{ kind: 'ConfigMap', metadata: { name: 'cm' } }]);
  assert.equal(r.status?.code, 422);
  assert.match(r.status?.message ?? '', /configmaps "cm" is invalid/);
});
