// The ResourceDistribution route with the real validator: what runs before any I/O (review M2), the author's write
// access (review H5), and that no byte of a distributed Secret reaches the reply or the log (review M1).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { validateResourceDistribution } from '../../shared/domain/validation/resource-distribution.js';
import { buildApp } from '../app.js';
import { createMetrics } from '../metrics.js';
import { review } from '../test-helpers.js';
import { validateResourceDistributionRoute, type ValidateResourceDistributionDeps } from './validate-resource-distribution.js';
import { cachedCanWrite, MAX_CHECKED_NAMESPACES, type CanWrite, type RequestUser } from './write-access.js';

const on = { ResourceDistributionGate: true };
const user = { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };
const secret = (extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'dg==' }, ...extra });
const rd = (resource: unknown, targets: Record<string, unknown> = { includedNamespaces: { list: [{ name: 'team-a' }] } }) =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd' }, spec: { resource, targets } });

interface Sar { user: RequestUser; verb: string; resource: string; namespace: string }

function world(o: { allowed?: (s: Sar) => boolean; labels?: Record<string, Record<string, string>>; dryRunError?: string } = {}) {
  const sars: Sar[] = [];
  const dryRuns: unknown[] = [];
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  const deps: ValidateResourceDistributionDeps = {
    gates: on, validate: validateResourceDistribution, namespaceLabels: (n) => o.labels?.[n],
    dryRunCreate: async (r) => { dryRuns.push(r); return o.dryRunError; },
    canWrite: async (u, verb, resource, namespace) => { const s = { user: u, verb, resource, namespace }; sars.push(s); return o.allowed?.(s) ?? true; },
  };
  const route = validateResourceDistributionRoute(deps);
  const app = buildApp({ log: pino({ level: 'trace' }, sink), routes: [route], metrics: createMetrics() });
  const call = async (object: unknown, userInfo: unknown = user, oldObject?: unknown) => {
    const body = review({ kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'ResourceDistribution' }, object,
      ...(oldObject ? { operation: 'UPDATE' as const, oldObject } : {}) });
    const res = await app.inject({ method: 'POST', url: route.path, payload: { ...body, request: { ...body.request, userInfo } } });
    return { raw: res.body, ...(res.json().response as { allowed: boolean; status?: { code: number; message?: string } }) };
  };
  return { call, sars, dryRuns, lines };
}

test('a kind other than Secret or ConfigMap is refused before any dry-run or access check (review M2)', async () => {
  const w = world();
  const r = await w.call(rd({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'cluster-admin' } }));
  assert.equal(r.status?.code, 422);
  assert.match(r.status?.message ?? '', /unsupported resource GroupKind/);
  assert.deepEqual([w.dryRuns.length, w.sars.length], [0, 0]);
});

test('renaming the resource on update is refused before any dry-run (review M2)', async () => {
  const w = world();
  const body = review({ operation: 'UPDATE', object: rd(secret({ metadata: { name: 'other' } })), oldObject: rd(secret()) });
  const route = validateResourceDistributionRoute({ gates: on, validate: validateResourceDistribution, dryRunCreate: async (r) => { w.dryRuns.push(r); return undefined; } });
  const app = buildApp({ log: pino({ level: 'silent' }), routes: [route], metrics: createMetrics() });
  const res = (await app.inject({ method: 'POST', url: route.path, payload: body })).json().response;
  assert.match(res.status.message, /immutable/);
  assert.equal(w.dryRuns.length, 0);
});

test('the author must be allowed to create and update the kind in every listed namespace; the first refused is named (review H5)', async () => {
  const w = world({ allowed: (s) => !(s.namespace === 'team-c' && s.verb === 'update') });
  const r = await w.call(rd(secret(), { includedNamespaces: { list: [{ name: 'team-a' }, { name: 'team-b' }, { name: 'team-c' }, { name: 'team-d' }, { name: 'team-e' }] } }));
  assert.equal(r.allowed, false);
  assert.equal(r.status?.code, 403);
  assert.equal(r.status?.message, 'user "alice" may not update secrets in namespace "team-c" (a ResourceDistribution writes only where its author may)');
  assert.deepEqual(w.sars[0], { user, verb: 'create', resource: 'secrets', namespace: 'team-a' });
  assert.ok(!w.sars.some((s) => s.namespace === 'team-e'), 'checks stop after the batch (8 checks) that found a refusal');
  assert.equal(w.dryRuns.length, 0, 'no dry-run for a refused author');
});

test('an author allowed everywhere listed is admitted, ConfigMaps checked as configmaps', async () => {
  const w = world();
  const r = await w.call(rd({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, { includedNamespaces: { list: [{ name: 'a' }, { name: 'b' }] } }));
  assert.equal(r.allowed, true);
  assert.deepEqual(w.sars.map((s) => `${s.verb} ${s.resource} ${s.namespace}`), ['create configmaps a', 'update configmaps a', 'create configmaps b', 'update configmaps b']);
});

test('an update that leaves spec alone needs no access check (garbage collector finalizers, label edits); one that changes it does', async () => {
  const w = world({ allowed: () => false });
  const before = rd(secret());
  const call = (object: unknown) => w.call(object, user, before);
  const relabelled = { ...before, metadata: { ...before.metadata, labels: { a: 'b' }, finalizers: ['foregroundDeletion'] } };
  assert.equal((await call(relabelled)).allowed, true);
  assert.equal(w.sars.length, 0);
  assert.equal((await call(rd(secret({ data: { k: 'dzI=' } })))).status?.code, 403);
});

test('allNamespaces and namespaceLabelSelector need the right in every namespace', async () => {
  for (const targets of [{ allNamespaces: true }, { namespaceLabelSelector: { matchLabels: { env: 'dev' } } }]) {
    const w = world({ allowed: (s) => s.namespace !== '' });
    const r = await w.call(rd(secret(), targets));
    assert.equal(r.status?.code, 403);
    assert.match(r.status?.message ?? '', /^user "alice" may not create secrets in every namespace/);
    assert.deepEqual(w.sars.map((s) => s.namespace), ['']);
  }
});

test('more listed namespaces than can be checked are refused without a check; a review without a user is refused', async () => {
  const w = world();
  const list = Array.from({ length: MAX_CHECKED_NAMESPACES + 1 }, (_, i) => ({ name: `ns-${i}` }));
  const r = await w.call(rd(secret(), { includedNamespaces: { list } }));
  assert.equal(r.status?.code, 403);
  assert.match(r.status?.message ?? '', /lists 51 namespaces; at most 50 are checked/);
  assert.equal(w.sars.length, 0);
  const anon = await w.call(rd(secret()), {});
  assert.equal(anon.status?.code, 403);
  assert.match(anon.status?.message ?? '', /names no user/);
});

test('kube-* and kruise namespaces listed explicitly are refused with no access check', async () => {
  const w = world({ labels: { 'kruise-daemon-config': { 'control-plane': 'openkruise' } } });
  const r = await w.call(rd(secret(), { includedNamespaces: { list: [{ name: 'kruise-daemon-config' }, { name: 'kube-public' }] } }));
  assert.equal(r.status?.code, 422);
  assert.match(r.status?.message ?? '', /namespace "kruise-daemon-config" is never a distribution target: namespaces labelled control-plane=openkruise belong to kruise/);
  assert.match(r.status?.message ?? '', /namespace "kube-public" is never a distribution target/);
  assert.equal(w.sars.length, 0);
});

test('a planted Secret value appears nowhere in the replies or the log, refused or admitted (review M1)', async () => {
  const planted = 'PLANTED-7c2e-SECRET-VALUE';
  const b64 = Buffer.from(planted).toString('base64');
  const content = { data: { password: b64 }, stringData: { token: planted } };
  const w = world({ allowed: (s) => s.namespace !== 'denied', dryRunError: undefined });
  const replies = [
    await w.call(rd({ apiVersion: 'v1', metadata: { name: 's' }, ...content })),
    await w.call(rd({ kind: 'Secret', metadata: { name: 's' }, ...content })),
    await w.call(rd({ apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 's', finalizers: ['x/y'] }, ...content })),
    await w.call(rd({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, ...content }, { includedNamespaces: { list: [{ name: 'denied' }] } })),
    await w.call(rd({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, ...content })),
  ];
  assert.deepEqual(replies.map((r) => r.allowed), [false, false, false, false, true]);
  assert.ok(w.lines.length >= 5, 'every review was logged');
  for (const text of [...replies.map((r) => r.raw), ...w.lines]) {
    assert.ok(!text.includes(planted) && !text.includes(b64), text);
  }
});

test('access answers are kept briefly per user, verb, resource and namespace, and bounded in number', async () => {
  let now = 0;
  const calls: string[] = [];
  const inner: CanWrite = async (u, verb, _r, ns) => { calls.push(`${u.username} ${verb} ${ns}`); return true; };
  const can = cachedCanWrite(inner, { now: () => now, ttlMs: 1000, maxEntries: 2 });
  await can(user, 'create', 'secrets', 'a');
  await can(user, 'create', 'secrets', 'a');
  await can({ ...user, groups: ['system:masters'] }, 'create', 'secrets', 'a');
  assert.equal(calls.length, 2, 'the same user is answered from the cache; other groups are another user');
  now = 1000;
  await can(user, 'create', 'secrets', 'a');
  assert.equal(calls.length, 3, 'an answer expires');
  await can(user, 'update', 'secrets', 'a');
  await can(user, 'create', 'secrets', 'b');
  await can(user, 'update', 'secrets', 'a');
  assert.equal(calls.length, 5, 'the two newest answers are kept');
  await can(user, 'create', 'secrets', 'a');
  assert.equal(calls.length, 6, 'the oldest answer went when the bound was reached');
});
