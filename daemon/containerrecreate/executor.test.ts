// The executor's wiring: cache events → pod-keyed queue → syncer, with writes fed back into the cache the way the
// informer would deliver them. Everything in memory; the CRI is the fake.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import type { Cache, ChangeVerb } from '../../shared/kube/informer.js';
import { silentLogger } from '../../shared/log.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { startContainerRecreateExecutor, type ExecutorOutcome } from './executor.js';
import { crr, MemoryCrrStore, POD_UID, syncedAnnotation, T0 } from './testing.js';

class MemoryCache<T extends { metadata?: { name?: string; namespace?: string } }> implements Cache<T> {
  readonly items = new Map<string, T>();
  private readonly listeners: ((o: T, verb: ChangeVerb) => void)[] = [];
  synced = Promise.resolve();
  isSynced = () => true;
  list = () => [...this.items.values()];
  get = (key: string) => this.items.get(key);
  onChange(cb: (o: T, verb: ChangeVerb) => void): void {
    this.listeners.push(cb);
  }
  set(o: T): void {
    const key = `${o.metadata?.namespace}/${o.metadata?.name}`;
    const verb = this.items.has(key) ? 'update' : 'add';
    this.items.set(key, o);
    for (const l of this.listeners) l(o, verb);
  }
}

async function until<T>(what: string, f: () => T | undefined | false): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = f();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('a CRR in the cache is driven to Completed; every write reaches the cache; abort stops the workers', async () => {
  const rt = new FakeRuntime();
  const labels = { 'io.kubernetes.pod.uid': POD_UID, 'io.kubernetes.container.name': 'app' };
  const started = BigInt(T0 - 60_000) * 1_000_000n;
  rt.addContainer({ id: 'app-1', name: 'app', createdAtNs: started, startedAtNs: started, labels });
  const crrs = new MemoryCache<ContainerRecreateRequest>();
  const pods = new MemoryCache<V1Pod>();
  pods.set({ metadata: { namespace: 'default', name: 'web-0', uid: POD_UID } });
  const store = new MemoryCrrStore();
  // The writer is the "API server"; its result reaches the cache like a watch event.
  const writer = {
    updateStatus: async (c: ContainerRecreateRequest, s: NonNullable<ContainerRecreateRequest['status']>) => {
      const rv = await store.updateStatus(c, s);
      setImmediate(() => crrs.set(structuredClone(store.get(c.metadata!.name!)!)));
      return rv;
    },
    patchStates: async (c: ContainerRecreateRequest, s: Parameters<MemoryCrrStore['patchStates']>[1]) => {
      const rv = await store.patchStates(c, s);
      setImmediate(() => crrs.set(structuredClone(store.get(c.metadata!.name!)!)));
      return rv;
    },
  };
  const outcomes: ExecutorOutcome[] = [];
  const ac = new AbortController();
  const exec = startContainerRecreateExecutor({
    nodeName: 'node-1', runtimes: new Map([['containerd', rt]]), log: silentLogger(), signal: ac.signal,
    caches: { crrs, pods }, writer, emitEvent: () => undefined, getPod: async () => undefined, onOutcome: (o) => outcomes.push(o), workers: 2,
  });
  await exec.synced;
  const c = crr({ createdAt: Date.now() - 5_000 });
  store.put(c);
  crrs.set(structuredClone(c));

  await until('the container stopped', () => rt.callsOf('stopContainer').length === 1);
  const startedNew = BigInt(Date.now() - 1_000) * 1_000_000n;
  rt.addContainer({ id: 'app-2', name: 'app', createdAtNs: startedNew, startedAtNs: startedNew, labels, annotations: { 'io.kubernetes.container.restartCount': '1' } });
  await until('states written', () => store.get('crr-1')?.status?.containerRecreateStates?.[0]?.isKilled);
  const withReport = structuredClone(store.get('crr-1')!);
  withReport.metadata = { ...withReport.metadata, resourceVersion: '9999', annotations: syncedAnnotation({ name: 'app', containerID: 'containerd://app-2', ready: true }) };
  store.put(withReport);
  crrs.set(structuredClone(withReport));

  await until('Completed', () => store.get('crr-1')?.status?.phase === 'Completed');
  assert.equal(store.get('crr-1')?.status?.message, '');
  assert.deepEqual(store.get('crr-1')?.status?.containerRecreateStates, [{ name: 'app', phase: 'Succeeded', isKilled: true }]);
  assert.equal(rt.callsOf('stopContainer').length, 1);
  assert.deepEqual(outcomes.map((o) => o.kind), ['kill', 'complete']);
  ac.abort();
  await exec.done;
});

test('a CRR whose pod is missing from the cache and from the API completes with "pod has gone"', async () => {
  const crrs = new MemoryCache<ContainerRecreateRequest>();
  const store = new MemoryCrrStore();
  const ac = new AbortController();
  const exec = startContainerRecreateExecutor({
    nodeName: 'node-1', runtimes: new Map([['containerd', new FakeRuntime()]]), log: silentLogger(), signal: ac.signal,
    caches: { crrs, pods: new MemoryCache<V1Pod>() }, writer: store, emitEvent: () => undefined, getPod: async () => undefined,
  });
  const c = crr();
  store.put(c);
  crrs.set(c);
  await until('Completed', () => store.get('crr-1')?.status?.phase === 'Completed');
  assert.equal(store.get('crr-1')?.status?.message, 'pod has gone');
  ac.abort();
  await exec.done;
});

test('a pod the informer has not shown yet is confirmed through the API, so a new pod is not taken for gone', async () => {
  const crrs = new MemoryCache<ContainerRecreateRequest>();
  const store = new MemoryCrrStore();
  const ac = new AbortController();
  const lookups: string[] = [];
  const exec = startContainerRecreateExecutor({
    nodeName: 'node-1', runtimes: new Map([['containerd', new FakeRuntime()]]), log: silentLogger(), signal: ac.signal,
    caches: { crrs, pods: new MemoryCache<V1Pod>() }, writer: store, emitEvent: () => undefined,
    getPod: async (ns, name) => { lookups.push(`${ns}/${name}`); return { metadata: { namespace: ns, name, uid: POD_UID } }; },
  });
  const c = crr();
  store.put(c);
  crrs.set(c);
  await until('Recreating', () => store.get('crr-1')?.status?.phase === 'Recreating');
  assert.deepEqual(lookups, ['default/web-0']);
  ac.abort();
  await exec.done;
});
