// The reconcile against a recorded in-memory API: which writes happen, in which order, for each step of a rollout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import pino from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { realClock } from '../../shared/clock.js';
import type { Cache } from '../../shared/kube/informer.js';
import { KubeApiError, type KubeRest } from '../../shared/kube/rest.js';
import type { Resource } from '../../shared/kube/resources.js';
import { UpdateExpectations } from './expectations.js';
import { image, kubelet, makePod, makeSet, NOW, withImage } from './fixtures.js';
import { PodIndex } from './pod-index.js';
import { podView } from './pod-view.js';
import { sidecarSetReconciler, type ReconcileDeps } from './reconcile.js';
import type { Revision } from './revision-history.js';

type Obj = KubernetesObject & Record<string, unknown>;
const keyOf = (o: { namespace?: string; name?: string }) => (o.namespace ? `${o.namespace}/${o.name}` : (o.name ?? ''));

/** An API server of plain maps per resource; every write is logged as "VERB plural[/sub] name". */
function fakeApi() {
  const store = new Map<string, Map<string, Obj>>();
  const log: string[] = [];
  const bodies: unknown[] = [];
  const table = (r: Resource) => store.get(r.plural) ?? store.set(r.plural, new Map()).get(r.plural)!;
  let rv = 1000;
  const rest: KubeRest = {
    get: async (r, o) => {
      const v = table(r).get(keyOf(o));
      if (!v) throw new KubeApiError('GET', r.plural, 404, '{"reason":"NotFound"}');
      return structuredClone(v) as never;
    },
    find: async (r, o) => structuredClone(table(r).get(keyOf(o))) as never,
    list: async (r) => ({ items: [...table(r).values()] }) as never,
    create: async (r, obj) => {
      const k = keyOf(obj.metadata ?? {});
      log.push(`POST ${r.plural} ${obj.metadata?.name}`);
      if (table(r).has(k)) throw new KubeApiError('POST', r.plural, 409, '{"reason":"AlreadyExists"}');
      const stored = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++rv) } } as Obj;
      table(r).set(k, stored);
      return structuredClone(stored) as never;
    },
    replace: async (r, obj) => {
      log.push(`PUT ${r.plural} ${obj.metadata?.name}`);
      const current = table(r).get(keyOf(obj.metadata ?? {}));
      if (current && current.metadata?.resourceVersion !== obj.metadata?.resourceVersion) throw new KubeApiError('PUT', r.plural, 409, '{"reason":"Conflict"}');
      bodies.push(obj);
      const stored = { ...structuredClone(obj), metadata: { ...obj.metadata, resourceVersion: String(++rv) } } as Obj;
      table(r).set(keyOf(obj.metadata ?? {}), stored);
      return structuredClone(stored) as never;
    },
    patch: async (r, o, _type, body) => {
      log.push(`PATCH ${r.plural}${o.subresource ? `/${o.subresource}` : ''} ${o.name}`);
      bodies.push(body);
      if (r.plural !== 'pods' || o.subresource) return {} as never;
      // A pod patch as pod-patch.ts writes it: resourceVersion precondition, merged maps, images by container name.
      const current = table(r).get(keyOf(o));
      if (!current) throw new KubeApiError('PATCH', r.plural, 404, '{"reason":"NotFound"}');
      const p = body as { metadata: { resourceVersion?: string; annotations?: Record<string, string | null> }; spec?: { containers?: { name: string; image: string }[] } };
      if (p.metadata.resourceVersion !== current.metadata?.resourceVersion) throw new KubeApiError('PATCH', r.plural, 409, '{"reason":"Conflict"}');
      const next = structuredClone(current) as unknown as Pod;
      const annotations = (next.metadata!.annotations ??= {});
      for (const [k, v] of Object.entries(p.metadata.annotations ?? {})) if (v === null) delete annotations[k]; else annotations[k] = v;
      for (const c of p.spec?.containers ?? []) next.spec!.containers.find((x) => x.name === c.name)!.image = c.image;
      next.metadata!.resourceVersion = String(++rv);
      table(r).set(keyOf(o), next as unknown as Obj);
      return structuredClone(next) as never;
    },
    delete: async (r, o) => { log.push(`DELETE ${r.plural} ${o.name}`); return table(r).delete(keyOf(o)); },
    watch: async () => { throw new Error('watch is not faked'); },
  };
  return { rest, log, bodies, put: (r: string, o: Obj) => (store.get(r) ?? store.set(r, new Map()).get(r)!).set(keyOf(o.metadata ?? {}), o), table: (p: string) => store.get(p) ?? new Map<string, Obj>() };
}

function cacheOf<T extends KubernetesObject>(items: () => T[]): Cache<T> {
  return {
    synced: Promise.resolve(), isSynced: () => true, onChange: () => {},
    list: () => items(),
    get: (key) => items().find((i) => keyOf(i.metadata ?? {}) === key),
  };
}

function harness(set: SidecarSet, pods: Pod[]) {
  const api = fakeApi();
  const world = { set, pods };
  for (const p of pods) api.put('pods', p as Obj);
  const index = new PodIndex();
  const events: string[] = [];
  const deps: ReconcileDeps = {
    rest: api.rest, clock: { ...realClock, now: () => NOW.getTime() }, log: pino({ level: 'silent' }), namespace: 'kruise-system',
    events: { event: (obj, type, reason) => events.push(`${type} ${reason} ${obj.kind}/${obj.metadata?.name}`) },
    sidecarSets: cacheOf(() => [world.set]),
    pods: cacheOf(() => world.pods),
    revisions: cacheOf(() => [...api.table('controllerrevisions').values()] as unknown as Revision[]),
    namespaceLabels: () => ({}),
    index, expectations: new UpdateExpectations(),
  };
  const reindex = () => world.pods.forEach((p) => index.set(`${p.metadata!.namespace}/${p.metadata!.name}`, [...podView(p).injected]));
  reindex();
  const reconcile = sidecarSetReconciler(deps);
  return {
    api, events, world,
    run: async () => { reindex(); api.log.length = 0; return reconcile('scs', { log: deps.log, signal: new AbortController().signal }); },
    /** The informer catches up with the API's pods. */
    sync: () => { world.pods = [...api.table('pods').values()] as Pod[]; },
    /** Kubelet applies the stored spec of `names` (all when omitted), and the informer sees it. */
    kubelet: (names?: string[]) => {
      for (const [k, p] of api.table('pods')) if (!names || names.includes(p.metadata!.name!)) api.table('pods').set(k, kubelet(p as Pod) as Obj);
      world.pods = [...api.table('pods').values()] as Pod[];
    },
  };
}

const v1 = makeSet();
const three = () => ['a', 'b', 'c'].map((n) => kubelet(makePod(n, [v1])));

test('a new SidecarSet: its first revision is recorded and the status written; no pod is touched', async () => {
  const h = harness(v1, three());
  assert.equal(await h.run(), undefined);
  assert.deepEqual(h.api.log.map((l) => l.replace(/scs-\w+/, 'scs-<hash>')), ['POST controllerrevisions scs-<hash>', 'PATCH sidecarsets/status scs']);
  const status = (h.api.bodies.at(-1) as { status: Record<string, unknown> }).status;
  assert.deepEqual({ ...status, latestRevision: undefined }, { observedGeneration: 1, matchedPods: 3, updatedPods: 3, readyPods: 3, updatedReadyPods: 3, latestRevision: undefined, collisionCount: 0 });
});

test('a rollout with maxUnavailable 1: one pod per round, each after kubelet has applied the previous one', async () => {
  const h = harness(v1, three());
  await h.run();
  h.world.set = { ...withImage(v1, 'busybox:2.0'), status: h.world.set.status };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods a', 'PATCH pods/status a']);

  // The cache has not seen the write yet: wait, write nothing.
  assert.deepEqual(await h.run(), { requeueAfterMs: 1000 });
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), []);

  // Seen, but kubelet has not restarted the sidecar: it uses the budget.
  h.sync();
  assert.equal(await h.run(), undefined);
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), []);

  // Kubelet applied it: the next pod goes.
  h.kubelet(['a']);
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods b']);
  assert.equal(image(h.api.table('pods').get('default/b') as Pod, 'sidecar'), 'busybox:2.0');
});

test('paused and NotUpdate write status but update no pod; updatedPods ≥ matchedPods stops too', async () => {
  for (const strategy of [{ paused: true }, { type: 'NotUpdate' }]) {
    const h = harness(v1, three());
    h.world.set = withImage({ ...v1, spec: { ...v1.spec, updateStrategy: strategy } }, 'busybox:2.0');
    await h.run();
    assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), [], JSON.stringify(strategy));
  }
});

test('pods that need more than an image change are marked not upgradable, with an event on the SidecarSet', async () => {
  const h = harness(v1, three());
  const other = makeSet({ containers: [{ name: 'sidecar', image: 'busybox:1.0', command: ['other'] }] });
  h.world.set = { ...other, metadata: { ...other.metadata, generation: 2 } };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods/status a', 'PATCH pods/status b', 'PATCH pods/status c']);
  assert.deepEqual(h.events, ['Normal NotUpgradablePods SidecarSet/scs']);
});

test('hot upgrade: after kubelet ran the new slot, the old one is reset with a ResetContainerSucceed event on the pod', async () => {
  const hot = makeSet({ hot: true });
  const h = harness(hot, [kubelet(makePod('a', [hot]))]);
  h.world.set = withImage(hot, 'busybox:2.0');
  await h.run();
  assert.equal(image(h.api.table('pods').get('default/a') as Pod, 'sidecar-2'), 'busybox:2.0');
  h.kubelet();
  await h.run();
  const pod = h.api.table('pods').get('default/a') as Pod;
  assert.equal(image(pod, 'sidecar-1'), 'empty:1.0');
  assert.deepEqual(h.events, ['Normal ResetContainerSucceed Pod/a']);
});

test('a stale cache: the pod another process already updated gets no second write (conflict, GET, nothing to do)', async () => {
  const h = harness(v1, three());
  await h.run();
  const v2 = { ...withImage(v1, 'busybox:2.0'), status: h.world.set.status };
  h.world.set = v2;
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods a']);
  // A new process: empty expectations, and a cache that has not seen the write to pod a yet.
  const fresh = harness(v2, h.world.pods);
  for (const p of h.api.table('pods').values()) fresh.api.put('pods', structuredClone(p));
  await fresh.run();
  assert.deepEqual(fresh.api.log.filter((l) => l.includes(' pods ')), ['PATCH pods a'], 'one attempt from the stale cache, refused');
  assert.equal(image(fresh.api.table('pods').get('default/a') as Pod, 'sidecar'), 'busybox:2.0');
  assert.equal((fresh.api.table('pods').get('default/b') as Pod).spec!.containers.find((c) => c.name === 'sidecar')!.image, 'busybox:1.0');
});
