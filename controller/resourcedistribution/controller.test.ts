// The reconciler over an in-memory cluster: caches seeded with objects, every API call recorded and applied to the
// same store (as if each watch event arrived at once), so a test reads as "world → reconcile → expected calls".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ResourceDistribution } from '../../shared/api/resource-distribution.js';
import { FakeClock } from '../../shared/clock.js';
import { silentLogger } from '../../shared/log.js';
import type { Cache, ChangeVerb } from '../../shared/kube/informer.js';
import type { InformerFactory } from '../../shared/kube/informer-factory.js';
import type { Resource } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { ReconcileFn } from '../../shared/reconcile/types.js';
import type { ControllerDeps } from '../types.js';
import { resourceDistributionController } from './controller.js';

type Obj = KubernetesObject & Record<string, unknown>;

/** `lag`: writes reach the caches (and fire their events) only on flush(), as when the watch is behind. */
function fakeCluster(opts: { lag?: boolean } = {}) {
  const stores = new Map<string, Map<string, Obj>>();
  const delayed: (() => void)[] = [];
  const later = (f: () => void) => (opts.lag ? delayed.push(f) : f());
  const listeners = new Map<string, ((o: Obj, v: ChangeVerb) => void)[]>();
  const calls: string[] = [];
  let uid = 0;
  const store = (plural: string) => stores.get(plural) ?? stores.set(plural, new Map()).get(plural)!;
  const keyOf = (o: KubernetesObject) => (o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata!.name!);
  const put = (plural: string, o: Obj, verb?: ChangeVerb) => {
    const s = store(plural);
    const v = verb ?? (s.has(keyOf(o)) ? 'update' : 'add');
    o.metadata = { uid: `uid-${++uid}`, ...o.metadata, resourceVersion: String(uid) };
    s.set(keyOf(o), o);
    for (const l of listeners.get(plural) ?? []) l(o, v);
  };
  const remove = (plural: string, key: string) => {
    const o = store(plural).get(key);
    if (!o) return false;
    store(plural).delete(key);
    for (const l of listeners.get(plural) ?? []) l(o, 'delete');
    return true;
  };
  const informers: InformerFactory = {
    cache: <T extends KubernetesObject>(r: Resource) => ({
      synced: Promise.resolve(), isSynced: () => true,
      list: () => [...store(r.plural).values()],
      get: (k: string) => store(r.plural).get(k),
      onChange: (cb: (o: Obj, v: ChangeVerb) => void) => void (listeners.get(r.plural) ?? listeners.set(r.plural, []).get(r.plural)!).push(cb),
    }) as unknown as Cache<T>,
    notSynced: () => null,
    synced: async () => {},
  };
  const where = (r: Resource, o: { namespace?: string; name: string }) => `${r.plural} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
  const conflict = () => Object.assign(new Error('exists'), { code: 409, statusMessage: 'already exists' });
  const rest = {
    create: async (r: Resource, obj: Obj) => {
      calls.push(`POST ${where(r, { namespace: obj.metadata?.namespace, name: obj.metadata!.name! })}`);
      if (store(r.plural).has(keyOf(obj))) throw conflict();
      const copy = structuredClone(obj);
      later(() => put(r.plural, copy));
      return obj;
    },
    replace: async (r: Resource, obj: Obj) => {
      calls.push(`PUT ${where(r, { namespace: obj.metadata?.namespace, name: obj.metadata!.name! })}`);
      const next = { ...structuredClone(obj), metadata: { ...obj.metadata, uid: store(r.plural).get(keyOf(obj))?.metadata?.uid } };
      later(() => put(r.plural, next));
      return obj;
    },
    patch: async (r: Resource, o: { name: string; subresource?: string }, _t: string, body: { status: Record<string, unknown> }) => {
      calls.push(`PATCH ${where(r, o)}/${o.subresource}`);
      const cur = store(r.plural).get(o.name)!;
      const status = Object.fromEntries(Object.entries(body.status).filter(([, v]) => v !== null));
      later(() => put(r.plural, { ...store(r.plural).get(o.name)!, status }));
      return cur;
    },
    delete: async (r: Resource, o: { namespace?: string; name: string }) => {
      calls.push(`DELETE ${where(r, o)}`);
      const key = o.namespace ? `${o.namespace}/${o.name}` : o.name;
      const found = store(r.plural).has(key);
      later(() => remove(r.plural, key));
      return found;
    },
    find: async (r: Resource, o: { namespace?: string; name: string }) => {
      calls.push(`GET ${where(r, o)}`);
      return store(r.plural).get(o.namespace ? `${o.namespace}/${o.name}` : o.name);
    },
  } as unknown as KubeRest;
  const flush = () => { for (const f of delayed.splice(0)) f(); };
  return { informers, rest, calls, put, remove, flush, get: (plural: string, key: string) => store(plural).get(key) };
}

function start(opts: { lag?: boolean } = {}) {
  const cluster = fakeCluster(opts);
  const queued = new Set<string>();
  const deps = { informers: cluster.informers, rest: cluster.rest, clock: new FakeClock(Date.parse('2025-01-01T00:00:00Z')), log: silentLogger() } as unknown as ControllerDeps;
  const reconcile: ReconcileFn = resourceDistributionController.setup(deps, { add: (k) => queued.add(k), addAfter: (k) => queued.add(k) });
  /** Reconciles every queued key until the queue is empty; returns the API calls made. */
  const settle = async () => {
    const before = cluster.calls.length;
    for (let i = 0; queued.size > 0 && i < 10; i++) {
      const keys = [...queued];
      queued.clear();
      for (const k of keys) await reconcile(k, { log: silentLogger(), signal: new AbortController().signal });
    }
    return cluster.calls.slice(before);
  };
  return { ...cluster, settle, queued };
}

const ns = (name: string, labels?: Record<string, string>): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const seed: Obj = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'sample', generation: 1 },
  spec: {
    resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { lives: '3' } },
    targets: { includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-4' }] }, namespaceLabelSelector: { matchLabels: { group: 'test' } }, excludedNamespaces: { list: [{ name: 'ns-3' }] } },
  },
};
const status = (c: ReturnType<typeof start>) => c.get('resourcedistributions', 'sample')!.status as ResourceDistribution['status'];
const cond = (c: ReturnType<typeof start>, type: string) => status(c)?.conditions?.find((x) => x.type === type);

test('the seed example: copies in ns-1 and the selected ns-2, ns-4 reported missing, then nothing more to do', async () => {
  const c = start();
  for (const n of [ns('ns-1'), ns('ns-2', { group: 'test' }), ns('ns-3', { group: 'test' }), ns('kube-system', { group: 'test' })]) c.put('namespaces', n);
  c.put('resourcedistributions', structuredClone(seed));
  assert.deepEqual(await c.settle(), ['POST configmaps ns-1/game-demo', 'POST configmaps ns-2/game-demo', 'PATCH resourcedistributions sample/status']);
  assert.deepEqual([status(c)?.desired, status(c)?.succeeded, status(c)?.failed], [3, 2, 1]);
  assert.deepEqual(cond(c, 'NamespaceNotExists'), { type: 'NamespaceNotExists', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'namespace not found or is terminating', failedNamespace: ['ns-4'] });
  const copy = c.get('configmaps', 'ns-1/game-demo')!;
  assert.equal(copy.metadata?.annotations?.['kruise.io/resourcedistribution.resource.from'], 'sample');
  assert.match(copy.metadata?.annotations?.['kruise.io/resourcedistribution.resource.hashcode'] ?? '', /^[0-9a-f]{64}$/);

  // A second pass over the same world writes nothing, not even status.
  c.queued.add('sample');
  assert.deepEqual(await c.settle(), []);

  // ns-4 appears: only its copy is written.
  c.put('namespaces', ns('ns-4'));
  assert.deepEqual(await c.settle(), ['POST configmaps ns-4/game-demo', 'PATCH resourcedistributions sample/status']);
  assert.equal(cond(c, 'NamespaceNotExists')?.status, 'False');
});

test('local edits and deletes are reverted; a source edit reaches every copy; narrowing removes copies', async () => {
  const c = start();
  for (const n of [ns('a', { group: 'test' }), ns('b', { group: 'test' })]) c.put('namespaces', n);
  c.put('resourcedistributions', { ...structuredClone(seed), spec: { ...(seed.spec as object), targets: { namespaceLabelSelector: { matchLabels: { group: 'test' } } } } });
  await c.settle();

  c.put('configmaps', { ...c.get('configmaps', 'a/game-demo')!, data: { lives: '99' } });
  assert.deepEqual(await c.settle(), ['PUT configmaps a/game-demo']);
  assert.deepEqual(c.get('configmaps', 'a/game-demo')!.data, { lives: '3' });

  c.remove('configmaps', 'b/game-demo');
  assert.deepEqual(await c.settle(), ['POST configmaps b/game-demo']);

  const rd = c.get('resourcedistributions', 'sample')!;
  c.put('resourcedistributions', { ...rd, metadata: { ...rd.metadata, generation: 2 }, spec: { ...(rd.spec as object), resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { lives: '4' } } } });
  assert.deepEqual((await c.settle()).sort(), ['PATCH resourcedistributions sample/status', 'PUT configmaps a/game-demo', 'PUT configmaps b/game-demo']);
  assert.deepEqual(c.get('configmaps', 'b/game-demo')!.data, { lives: '4' });

  c.put('namespaces', ns('b', { group: 'gone' }));
  assert.deepEqual(await c.settle(), ['DELETE configmaps b/game-demo', 'PATCH resourcedistributions sample/status']);
  assert.equal(c.get('configmaps', 'b/game-demo'), undefined);
  assert.deepEqual([status(c)?.desired, status(c)?.succeeded], [1, 1]);
});

test('a same-named object it does not own is left alone and reported; its deletion lets the copy in', async () => {
  const c = start();
  c.put('namespaces', ns('ns-1'));
  c.put('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo', namespace: 'ns-1' }, data: { mine: 'yes' } });
  c.put('resourcedistributions', { ...structuredClone(seed), spec: { ...(seed.spec as object), targets: { includedNamespaces: { list: [{ name: 'ns-1' }] } } } });
  assert.deepEqual(await c.settle(), ['PATCH resourcedistributions sample/status']);
  assert.deepEqual(c.get('configmaps', 'ns-1/game-demo')!.data, { mine: 'yes' });
  assert.deepEqual(cond(c, 'ConflictOccurred')?.failedNamespace, ['ns-1']);
  assert.deepEqual([status(c)?.desired, status(c)?.succeeded, status(c)?.failed], [1, undefined, 1]);

  c.remove('configmaps', 'ns-1/game-demo');
  assert.deepEqual(await c.settle(), ['POST configmaps ns-1/game-demo', 'PATCH resourcedistributions sample/status']);
  assert.equal(cond(c, 'ConflictOccurred')?.status, 'False');
});

test('a Secret is distributed like a ConfigMap; an RD being deleted is left to garbage collection', async () => {
  const c = start();
  c.put('namespaces', ns('n'));
  c.put('resourcedistributions', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'sec', generation: 1 },
    spec: { resource: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, type: 'Opaque', stringData: { password: 'hunter2' } }, targets: { allNamespaces: true } } });
  assert.deepEqual(await c.settle(), ['POST secrets n/creds', 'PATCH resourcedistributions sec/status']);
  const rd = c.get('resourcedistributions', 'sec')!;
  c.put('resourcedistributions', { ...rd, metadata: { ...rd.metadata, generation: 2, deletionTimestamp: new Date() } });
  c.put('namespaces', ns('m'));
  assert.deepEqual(await c.settle(), []);
});

test('a pass right after a pass, before the cache has seen the first one\'s writes, writes nothing again', async () => {
  const c = start({ lag: true });
  for (const n of [ns('a', { group: 'test' }), ns('b', { group: 'test' })]) c.put('namespaces', n);
  c.put('resourcedistributions', { ...structuredClone(seed), spec: { ...(seed.spec as object), targets: { namespaceLabelSelector: { matchLabels: { group: 'test' } } } } });
  assert.deepEqual(await c.settle(), ['POST configmaps a/game-demo', 'POST configmaps b/game-demo', 'PATCH resourcedistributions sample/status']);
  c.queued.add('sample');
  assert.deepEqual(await c.settle(), [], 'creates and status still in flight are not repeated');
  c.flush();
  await c.settle();

  const rd = c.get('resourcedistributions', 'sample')!;
  c.put('resourcedistributions', { ...rd, metadata: { ...rd.metadata, generation: 2 }, spec: { ...(rd.spec as object), resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { lives: '4' } } } });
  assert.deepEqual((await c.settle()).sort(), ['PATCH resourcedistributions sample/status', 'PUT configmaps a/game-demo', 'PUT configmaps b/game-demo']);
  c.queued.add('sample');
  assert.deepEqual(await c.settle(), [], 'updates in flight are not repeated');
  c.flush();
  assert.deepEqual(await c.settle(), [], 'and once the cache shows them there is nothing to do');

  // A local edit that lands after our write is still reverted: the cache moved past the version we replaced.
  c.put('configmaps', { ...c.get('configmaps', 'a/game-demo')!, data: { lives: '99' } });
  assert.deepEqual(await c.settle(), ['PUT configmaps a/game-demo']);
});
