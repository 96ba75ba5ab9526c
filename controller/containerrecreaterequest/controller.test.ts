// The controller's I/O against a recorded in-memory REST fake and seeded caches (sample-controller's fixture style):
// which requests each reconcile makes, and that the pod not-ready round trip ends with the pod ready again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { FakeClock } from '../../shared/clock.js';
import type { Cache, ChangeVerb } from '../../shared/kube/informer.js';
import type { Resource } from '../../shared/kube/resources.js';
import { KubeApiError, type KubeRest } from '../../shared/kube/rest.js';
import { silentLogger } from '../../shared/log.js';
import type { ControllerDeps } from '../types.js';
import { containerRecreateRequestController } from './controller.js';

type Obj = KubernetesObject & Record<string, any>;

class MemoryCache implements Cache<Obj> {
  readonly items = new Map<string, Obj>();
  private readonly listeners: ((o: Obj, verb: ChangeVerb) => void)[] = [];
  synced = Promise.resolve();
  isSynced = () => true;
  list = () => [...this.items.values()];
  get = (k: string) => this.items.get(k);
  onChange(cb: (o: Obj, verb: ChangeVerb) => void) { this.listeners.push(cb); }
  set(o: Obj) {
    const key = `${o.metadata?.namespace}/${o.metadata?.name}`;
    const verb = this.items.has(key) ? 'update' : 'add';
    this.items.set(key, structuredClone(o));
    this.listeners.forEach((l) => l(o, verb));
  }
  remove(o: Obj) { this.items.delete(`${o.metadata?.namespace}/${o.metadata?.name}`); this.listeners.forEach((l) => l(o, 'delete')); }
}

/** Objects by `plural/ns/name`; every call is recorded as `VERB plural[/status] name`; writes flow into the caches. */
class FakeRest implements KubeRest {
  readonly store = new Map<string, Obj>();
  readonly calls: string[] = [];
  private rv = 1;
  constructor(private readonly caches: Record<string, MemoryCache>) {}
  seed(r: Resource, o: Obj) { this.save(r, o); }
  obj(plural: string, name: string) { return this.store.get(`${plural}/default/${name}`); }
  private id(r: Resource, ns: string | undefined, name: string) { return `${r.plural}/${ns ?? ''}/${name}`; }
  private save(r: Resource, o: Obj) {
    const c = structuredClone(o);
    c.metadata = { ...c.metadata, resourceVersion: String(++this.rv) };
    this.store.set(this.id(r, c.metadata.namespace, c.metadata.name!), c);
    this.caches[r.plural]?.set(c);
    return structuredClone(c);
  }
  private must(r: Resource, ns: string | undefined, name: string) {
    const o = this.store.get(this.id(r, ns, name));
    if (!o) throw new KubeApiError('GET', name, 404, '{"reason":"NotFound"}');
    return o;
  }
  async get<T extends KubernetesObject>(r: Resource, o: { namespace?: string; name: string }) { this.calls.push(`GET ${r.plural} ${o.name}`); return structuredClone(this.must(r, o.namespace, o.name)) as T; }
  async find<T extends KubernetesObject>(r: Resource, o: { namespace?: string; name: string }) {
    this.calls.push(`GET ${r.plural} ${o.name}`);
    const x = this.store.get(this.id(r, o.namespace, o.name));
    return x ? (structuredClone(x) as T) : undefined;
  }
  async list(): Promise<never> { throw new Error('not used'); }
  async create(): Promise<never> { throw new Error('not used'); }
  async replace<T extends KubernetesObject>(r: Resource, obj: T, q: { subresource?: 'status' } = {}) {
    this.calls.push(`PUT ${r.plural}${q.subresource ? '/status' : ''} ${obj.metadata?.name}`);
    const cur = this.must(r, obj.metadata?.namespace, obj.metadata!.name!);
    if (cur.metadata?.resourceVersion !== obj.metadata?.resourceVersion) throw new KubeApiError('PUT', '', 409, '{"reason":"Conflict"}');
    const next = q.subresource ? { ...cur, status: (obj as Obj).status } : { ...obj, status: cur.status };
    return this.save(r, next as Obj) as unknown as T;
  }
  async patch<T extends KubernetesObject>(r: Resource, o: { namespace?: string; name: string }, _t: string, body: any) {
    this.calls.push(`PATCH ${r.plural} ${o.name} ${JSON.stringify(body)}`);
    const cur = structuredClone(this.must(r, o.namespace, o.name));
    for (const part of ['labels', 'annotations'] as const) {
      for (const [k, v] of Object.entries(body.metadata?.[part] ?? {})) {
        cur.metadata![part] = { ...cur.metadata![part] };
        if (v === null) delete cur.metadata![part]![k]; else cur.metadata![part]![k] = v as string;
      }
    }
    return this.save(r, cur) as unknown as T;
  }
  async watch(): Promise<void> { throw new Error('watch is not faked: the test feeds the caches'); }
  async delete(r: Resource, o: { namespace?: string; name: string }) {
    this.calls.push(`DELETE ${r.plural} ${o.name}`);
    const cur = this.store.get(this.id(r, o.namespace, o.name));
    if (!cur) return false;
    this.store.delete(this.id(r, o.namespace, o.name));
    this.caches[r.plural]?.remove(cur);
    return true;
  }
}

const T0 = Date.parse('2026-03-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const crrRes: Resource = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'containerrecreaterequests', kind: 'ContainerRecreateRequest', namespaced: true };
const podRes: Resource = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };

function setup() {
  const caches = { containerrecreaterequests: new MemoryCache(), pods: new MemoryCache() };
  const rest = new FakeRest(caches);
  const clock = new FakeClock(T0 + 5_000);
  const queued: string[] = [];
  const deps = {
    rest, clock, log: silentLogger(),
    informers: { cache: (r: Resource) => caches[r.plural as keyof typeof caches], notSynced: () => null, synced: async () => undefined },
  } as unknown as ControllerDeps;
  const reconcile = containerRecreateRequestController.setup(deps, { add: (k) => queued.push(k), addAfter: () => undefined });
  const run = async () => reconcile('default/crr-1', { log: silentLogger(), signal: new AbortController().signal });
  return { rest, clock, queued, run, caches };
}

const pod = (gate: boolean): Obj => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { namespace: 'default', name: 'web-0', uid: 'u1' },
  spec: { containers: [{ name: 'app' }], ...(gate ? { readinessGates: [{ conditionType: 'KruisePodReady' }] } : {}) },
  status: {
    conditions: [{ type: 'ContainersReady', status: 'True' }, { type: 'Ready', status: 'True' }, { type: 'KruisePodReady', status: 'True', message: '[]' }],
    containerStatuses: [{ name: 'app', containerID: 'containerd://a1', ready: true, restartCount: 0, state: { running: { startedAt: iso(T0 - 60_000) } } }],
  },
});

const crr = (o: Partial<ContainerRecreateRequest['spec']> = {}, status: ContainerRecreateRequest['status'] = { phase: 'Recreating' }): Obj => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest',
  metadata: { namespace: 'default', name: 'crr-1', uid: 'c1', creationTimestamp: iso(T0) as never, labels: { 'crr.apps.kruise.io/pod-uid': 'u1', 'crr.apps.kruise.io/active': 'true' } },
  spec: { podName: 'web-0', containers: [{ name: 'app', statusContext: { containerID: 'containerd://a1', restartCount: 0 } }], strategy: { failurePolicy: 'Fail' }, ...o },
  status,
});

const cond = (rest: FakeRest, type: string) => (rest.obj('pods', 'web-0')?.status.conditions as { type: string; status?: string; message?: string }[]).find((c) => c.type === type);

test('unready grace with the gate: finalizer, pod held not-ready, stamp; at completion the pod is released and the label dropped', async () => {
  const s = setup();
  s.rest.seed(podRes, pod(true));
  s.rest.seed(crrRes, crr({ strategy: { failurePolicy: 'Fail', unreadyGracePeriodSeconds: 3 } }));
  await s.run();
  assert.deepEqual(s.rest.calls, [
    'PATCH containerrecreaterequests crr-1 {"metadata":{"annotations":{"crr.apps.kruise.io/sync-container-statuses":"[]"}}}',
    'GET containerrecreaterequests crr-1', 'PUT containerrecreaterequests crr-1',
    'GET pods web-0', 'PUT pods/status web-0',
    'PATCH containerrecreaterequests crr-1 {"metadata":{"annotations":{"crr.apps.kruise.io/unready-acquired":"2026-03-01T10:00:05Z"}}}',
  ]);
  const c = s.rest.obj('containerrecreaterequests', 'crr-1')!;
  assert.deepEqual(c.metadata?.finalizers, ['crr.apps.kruise.io/unready-acquired']);
  assert.deepEqual(cond(s.rest, 'KruisePodReady'), { type: 'KruisePodReady', status: 'False', message: '[{"userAgent":"ContainerRecreateRequest","key":"default/crr-1"}]', lastTransitionTime: '2026-03-01T10:00:05Z' });
  assert.equal(cond(s.rest, 'Ready')?.status, 'False');

  s.rest.calls.length = 0;
  await s.run();
  assert.equal(s.rest.calls.length, 0, 'a stamped CRR needs nothing more while Recreating');

  // The daemon completes it.
  const done = structuredClone(s.rest.obj('containerrecreaterequests', 'crr-1')!);
  done.status = { phase: 'Completed', completionTime: iso(T0 + 9_000), message: '' };
  s.rest.seed(crrRes, done);
  await s.run();
  assert.deepEqual(s.rest.calls.filter((x) => !x.startsWith('GET')), [
    'PUT pods/status web-0', 'PUT containerrecreaterequests crr-1',
    'PATCH containerrecreaterequests crr-1 {"metadata":{"labels":{"crr.apps.kruise.io/active":null}}}',
  ]);
  assert.deepEqual(cond(s.rest, 'KruisePodReady'), { type: 'KruisePodReady', status: 'True', message: '[]', lastTransitionTime: '2026-03-01T10:00:05Z' });
  assert.equal(cond(s.rest, 'Ready')?.status, 'True');
  assert.deepEqual(s.rest.obj('containerrecreaterequests', 'crr-1')?.metadata?.finalizers, []);
  assert.equal(s.rest.obj('containerrecreaterequests', 'crr-1')?.metadata?.labels?.['crr.apps.kruise.io/active'], undefined);
});

test('activeDeadlineSeconds passed: one status write completing the CRR', async () => {
  const s = setup();
  s.rest.seed(podRes, pod(false));
  s.rest.seed(crrRes, crr({ activeDeadlineSeconds: 3 }, { phase: 'Recreating', containerRecreateStates: [{ name: 'app', phase: 'Recreating', isKilled: true }] }));
  assert.deepEqual(await s.run(), {});
  assert.deepEqual(s.rest.calls, ['PUT containerrecreaterequests/status crr-1']);
  assert.deepEqual(s.rest.obj('containerrecreaterequests', 'crr-1')?.status, {
    phase: 'Completed', completionTime: '2026-03-01T10:00:05Z', message: 'recreating has exceeded the activeDeadlineSeconds',
    containerRecreateStates: [{ name: 'app', phase: 'Failed', message: 'recreating has exceeded the activeDeadlineSeconds', isKilled: true }],
  });
});

test('a pod the cache does not show is looked up before the CRR is declared gone', async () => {
  const s = setup();
  s.rest.seed(crrRes, crr());
  s.rest.store.set('pods/default/web-0', pod(false));
  await s.run();
  assert.equal(s.rest.calls[0], 'GET pods web-0');
  assert.notEqual(s.rest.obj('containerrecreaterequests', 'crr-1')?.status?.phase, 'Completed');
  s.rest.store.delete('pods/default/web-0');
  await s.run();
  assert.equal(s.rest.obj('containerrecreaterequests', 'crr-1')?.status?.message, 'pod has gone');
});

test('TTL: requeued for the remainder, then deleted', async () => {
  const s = setup();
  const c = crr({ ttlSecondsAfterFinished: 10 }, { phase: 'Completed', completionTime: iso(T0), message: '' });
  delete c.metadata!.labels!['crr.apps.kruise.io/active'];
  s.rest.seed(crrRes, c);
  assert.deepEqual(await s.run(), { requeueAfterMs: 5_000 });
  await s.clock.advance(5_000);
  await s.run();
  assert.deepEqual(s.rest.calls.filter((x) => !x.startsWith('GET')), ['DELETE containerrecreaterequests crr-1']);
  assert.equal(s.rest.obj('containerrecreaterequests', 'crr-1'), undefined);
});

test('pod changes wake only unfinished CRRs of that pod', async () => {
  const s = setup();
  s.rest.seed(crrRes, crr());
  s.queued.length = 0;
  s.caches.pods.set(pod(false));
  assert.deepEqual(s.queued, ['default/crr-1']);
  s.queued.length = 0;
  s.caches.pods.set({ ...pod(false), metadata: { namespace: 'default', name: 'other', uid: 'u9' } });
  assert.deepEqual(s.queued, []);
  s.rest.seed(crrRes, crr({}, { phase: 'Completed', completionTime: iso(T0) }));
  s.queued.length = 0;
  s.caches.pods.set(pod(false));
  assert.deepEqual(s.queued, []);
});
