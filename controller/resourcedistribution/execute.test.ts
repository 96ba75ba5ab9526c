import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import { executePlan, type CopyApi } from './execute.js';
import type { Plan } from './plan.js';
import { decodeResource, type CopyObject, type DistributedResource } from './resource.js';

const rd: ResourceDistribution = { metadata: { name: 'sample', uid: 'rd-uid' }, spec: { resource: {}, targets: {} } };
const resource = decodeResource({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }) as DistributedResource;
const ownerRef = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'sample', uid: 'rd-uid', controller: true };

class ApiError extends Error {
  constructor(readonly code: number, readonly statusMessage: string) { super(`HTTP ${code}: ${statusMessage}`); }
}

/** An in-memory API for one kind: objects by namespace, every call recorded, errors injectable per call. */
function fakeApi(objects: Record<string, CopyObject> = {}, errors: Record<string, ApiError> = {}) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const call = async <T>(what: string, f: () => T): Promise<T> => {
    calls.push(what);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight--;
    const err = errors[what];
    if (err) throw err;
    return f();
  };
  const api: CopyApi = {
    get: (ns, name) => call(`get ${ns}/${name}`, () => objects[ns]),
    create: (obj) => call(`create ${obj.metadata!.namespace}`, () => {
      if (objects[obj.metadata!.namespace!]) throw new ApiError(409, 'already exists');
      objects[obj.metadata!.namespace!] = obj;
    }),
    replace: (obj) => call(`replace ${obj.metadata!.namespace}`, () => { objects[obj.metadata!.namespace!] = obj; }),
    delete: (ns, name, uid) => call(`delete ${ns}/${name} uid=${uid}`, () => { delete objects[ns]; }),
  };
  return { api, calls, objects, maxInFlight: () => maxInFlight };
}

const run = (plan: Plan, api: CopyApi, concurrency = 4) => executePlan(plan, { rd, resource, hash: 'h', now: new Date(0), api, concurrency });

test('creates, updates and deletes; counts distribution successes only', async () => {
  const f = fakeApi({ b: { metadata: { name: 'cm', namespace: 'b', ownerReferences: [ownerRef] }, data: { a: 'x' } }, c: { metadata: { name: 'cm', uid: 'c-uid' } } });
  const out = await run({ inSync: 2, steps: [
    { op: 'create', namespace: 'a' },
    { op: 'update', namespace: 'b', existing: f.objects.b! },
    { op: 'delete', namespace: 'c', existing: f.objects.c! },
  ] }, f.api);
  assert.deepEqual(out, { succeeded: 4, failures: [], writes: { created: 1, updated: 1, deleted: 1 } });
  assert.deepEqual(f.calls.sort(), ['create a', 'delete c/cm uid=c-uid', 'replace b']);
  assert.deepEqual((f.objects.b as { data: unknown }).data, { a: '1' });
});

test('each failure lands in its condition with the apiserver message; clean-up failures do not reduce succeeded', async () => {
  const f = fakeApi({}, {
    'create a': new ApiError(403, 'configmaps "cm" is forbidden: exceeded quota'),
    'replace b': new ApiError(422, 'ConfigMap "cm" is invalid: field is immutable'),
    'delete c/cm uid=u': new ApiError(500, 'etcd timeout'),
  });
  const out = await run({ inSync: 0, steps: [
    { op: 'create', namespace: 'a' },
    { op: 'update', namespace: 'b', existing: { metadata: { name: 'cm' } } },
    { op: 'fail', failure: { namespace: 'd', condition: 'ConflictOccurred', message: 'conflict' } },
    { op: 'delete', namespace: 'c', existing: { metadata: { name: 'cm', uid: 'u' } } },
  ] }, f.api);
  assert.equal(out.succeeded, 0);
  assert.deepEqual(out.failures, [
    { namespace: 'a', condition: 'CreateResourceFailed', message: 'configmaps "cm" is forbidden: exceeded quota' },
    { namespace: 'b', condition: 'UpdateResourceFailed', message: 'ConfigMap "cm" is invalid: field is immutable' },
    { namespace: 'd', condition: 'ConflictOccurred', message: 'conflict' },
    { namespace: 'c', condition: 'DeleteResourceFailed', message: 'etcd timeout' },
  ]);
});

test('a create that finds the name taken (stale cache) decides again from the live object', async () => {
  const stillMine = fakeApi({ a: { metadata: { name: 'cm', ownerReferences: [ownerRef] }, data: { a: '1' } } });
  assert.deepEqual((await run({ inSync: 0, steps: [{ op: 'create', namespace: 'a' }] }, stillMine.api)).failures, []);
  assert.deepEqual(stillMine.calls, ['create a', 'get a/cm']);

  const drifted = fakeApi({ a: { metadata: { name: 'cm', ownerReferences: [ownerRef] }, data: { a: 'old' } } });
  const out = await run({ inSync: 0, steps: [{ op: 'create', namespace: 'a' }] }, drifted.api);
  assert.deepEqual([out.succeeded, out.writes.updated], [1, 1]);
  assert.deepEqual(drifted.calls, ['create a', 'get a/cm', 'replace a']);

  const taken = fakeApi({ a: { metadata: { name: 'cm' }, data: { a: 'theirs' } } });
  const conflict = await run({ inSync: 0, steps: [{ op: 'create', namespace: 'a' }] }, taken.api);
  assert.deepEqual(conflict.failures.map((x) => x.condition), ['ConflictOccurred']);
  assert.deepEqual((taken.objects.a as { data: unknown }).data, { a: 'theirs' }, 'never touched');
});

test('an update of a copy deleted meanwhile creates it', async () => {
  const f = fakeApi({}, { 'replace a': new ApiError(404, 'not found') });
  const out = await run({ inSync: 0, steps: [{ op: 'update', namespace: 'a', existing: { metadata: { name: 'cm' } } }] }, f.api);
  assert.deepEqual([out.succeeded, out.writes.created], [1, 1]);
});

test('never more than `concurrency` calls in flight', async () => {
  const f = fakeApi();
  const steps = Array.from({ length: 50 }, (_, i) => ({ op: 'create' as const, namespace: `ns-${i}` }));
  const out = await run({ inSync: 0, steps }, f.api, 8);
  assert.equal(out.succeeded, 50);
  assert.equal(f.maxInFlight(), 8);
});
