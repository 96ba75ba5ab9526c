// An in-memory stand-in for the apiserver and the shared caches, for reconciler tests (style P13: fakes passed in,
// no module mocks). It keeps the apiserver rules the controllers rely on: resourceVersion preconditions (409),
// AlreadyExists, uid preconditions on delete, the status subresource, and finalizers holding a deleted object.
// Caches see every write at once unless `lagging` holds a resource's events back (to play a stale cache).
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import type { Cache } from '../../shared/kube/informer.js';
import type { InformerFactory } from '../../shared/kube/informer-factory.js';
import type { Resource } from '../../shared/kube/resources.js';
import { KubeApiError, type KubeRest } from '../../shared/kube/rest.js';
import type { Enqueue } from '../types.js';

export interface Call { method: string; plural: string; name: string; subresource?: string }

const clone = <T>(o: T): T => structuredClone(o);
const idOf = (r: Resource, ns: string | undefined, name: string) => `${r.plural}|${r.namespaced ? ns ?? '' : ''}|${name}`;
const fail = (method: string, code: number, reason: string) => new KubeApiError(method, 'fake', code, JSON.stringify({ reason, message: reason }));

export class FakeCluster {
  readonly calls: Call[] = [];
  private readonly store = new Map<string, KubernetesObject>();
  /** What the caches show, per resource plural; equal to the store unless lagging. */
  private readonly views = new Map<string, Map<string, KubernetesObject>>();
  private readonly listeners = new Map<string, ((o: KubernetesObject) => void)[]>();
  private readonly lag = new Set<string>();
  private rv = 100;
  private uid = 0;
  private generated = 0;
  private readonly resources = new Map<string, Resource>();

  /** Puts an object in place as if created earlier (no call recorded). */
  seed<T extends KubernetesObject>(r: Resource, obj: T): T {
    return this.write(r, { ...clone(obj), metadata: { uid: `uid-${++this.uid}`, ...obj.metadata } }) as T;
  }

  get<T extends KubernetesObject>(r: Resource, name: string, ns?: string): T | undefined {
    const o = this.store.get(idOf(r, ns, name));
    return o ? (clone(o) as T) : undefined;
  }

  /** While lagging, caches of `r` keep showing what they had; `catchUp` delivers the current state. */
  lagging(r: Resource, on: boolean): void {
    if (on) this.lag.add(r.plural);
    else { this.lag.delete(r.plural); this.catchUp(r); }
  }

  private view(r: Resource): Map<string, KubernetesObject> {
    this.resources.set(r.plural, r);
    let v = this.views.get(r.plural);
    if (!v) this.views.set(r.plural, (v = new Map()));
    return v;
  }

  private catchUp(r: Resource): void {
    const v = this.view(r);
    const ids = new Set([...this.store.keys()].filter((k) => k.startsWith(`${r.plural}|`)));
    for (const [id, o] of v) if (!ids.has(id)) { v.delete(id); this.notify(r.plural, o); }
    for (const id of ids) {
      const o = this.store.get(id)!;
      if (v.get(id) !== o) { v.set(id, o); this.notify(r.plural, o); }
    }
  }

  private notify(plural: string, o: KubernetesObject) {
    for (const l of this.listeners.get(plural) ?? []) l(o);
  }

  private write(r: Resource, obj: KubernetesObject): KubernetesObject {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    const id = idOf(r, obj.metadata?.namespace, obj.metadata?.name ?? '');
    this.store.set(id, stored);
    if (!this.lag.has(r.plural)) this.deliver(r, id);
    return clone(stored);
  }

  private remove(r: Resource, id: string): void {
    this.store.delete(id);
    if (!this.lag.has(r.plural)) this.deliver(r, id);
  }

  /**
   * One object's change into a view that is in step (not lagging): only that id, so that N writes cost N, not N ×
   * the store (the controller fuzzer creates thousands of objects in one reconcile). A view not made yet catches up.
   */
  private deliver(r: Resource, id: string): void {
    const v = this.views.get(r.plural);
    if (!v) return this.catchUp(r);
    const o = this.store.get(id);
    const shown = v.get(id);
    if (o === shown) return;
    if (o) v.set(id, o);
    else v.delete(id);
    this.notify(r.plural, (o ?? shown)!);
  }

  readonly rest: KubeRest = {
    get: async (r, o) => {
      this.calls.push({ method: 'GET', plural: r.plural, name: o.name });
      const found = this.get(r, o.name, o.namespace);
      if (!found) throw fail('GET', 404, 'NotFound');
      return found as never;
    },
    find: async <T extends KubernetesObject>(r: Resource, o: { namespace?: string; name: string }) => {
      try { return await this.rest.get<T>(r, o); } catch (err) { if ((err as KubeApiError).code === 404) return undefined; throw err; }
    },
    list: async <T extends KubernetesObject>(r: Resource) =>
      ({ items: [...this.store.entries()].filter(([k]) => k.startsWith(`${r.plural}|`)).map(([, v]) => clone(v)) }) as KubernetesListObject<T>,
    create: async (r, obj) => {
      // generateName: the apiserver appends five random characters; here a counter, so runs are repeatable.
      if (!obj.metadata?.name && obj.metadata?.generateName) obj = { ...obj, metadata: { ...obj.metadata, name: `${obj.metadata.generateName}${String(++this.generated).padStart(5, '0')}` } };
      this.calls.push({ method: 'POST', plural: r.plural, name: obj.metadata?.name ?? '' });
      if (this.store.has(idOf(r, obj.metadata?.namespace, obj.metadata?.name ?? ''))) throw fail('POST', 409, 'AlreadyExists');
      return this.write(r, { ...clone(obj), metadata: { ...obj.metadata, uid: `uid-${++this.uid}`, creationTimestamp: new Date() } }) as never;
    },
    replace: async (r, obj, o = {}) => {
      const name = obj.metadata?.name ?? '';
      this.calls.push({ method: 'PUT', plural: r.plural, name, ...(o.subresource ? { subresource: o.subresource } : {}) });
      const id = idOf(r, obj.metadata?.namespace, name);
      const cur = this.store.get(id) as (KubernetesObject & { status?: unknown; spec?: unknown }) | undefined;
      if (!cur) throw fail('PUT', 404, 'NotFound');
      if (obj.metadata?.resourceVersion && obj.metadata.resourceVersion !== cur.metadata?.resourceVersion) throw fail('PUT', 409, 'Conflict');
      const next = clone(obj) as KubernetesObject & { status?: unknown };
      // Custom resources with a status subresource: each endpoint writes only its half.
      if (o.subresource === 'status') Object.assign(next, { ...cur, status: next.status });
      else if (r.group && 'status' in cur) next.status = cur.status;
      if (cur.metadata?.deletionTimestamp && !(next.metadata?.finalizers ?? []).length) { this.remove(r, id); return next as never; }
      return this.write(r, next) as never;
    },
    patch: async (r, o, type, body) => {
      this.calls.push({ method: 'PATCH', plural: r.plural, name: o.name, ...(o.subresource ? { subresource: o.subresource } : {}) });
      if (type !== 'merge' && type !== 'strategic') throw new Error(`${type} patches are not faked`);
      const id = idOf(r, o.namespace, o.name);
      const cur = this.store.get(id);
      if (!cur) throw fail('PATCH', 404, 'NotFound');
      const rv = (body as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
      if (rv && rv !== cur.metadata?.resourceVersion) throw fail('PATCH', 409, 'Conflict');
      const next = mergePatch(clone(cur), clone(body), type === 'strategic') as KubernetesObject & { status?: unknown };
      if (o.subresource === 'status') {
        // Kubernetes' pod status strategy keeps label and annotation changes (it resets only spec and ownerReferences).
        const podMeta = r.plural === 'pods' && !r.group;
        const metadata = podMeta ? { ...cur.metadata, labels: next.metadata?.labels, annotations: next.metadata?.annotations } : cur.metadata;
        return this.write(r, { ...cur, metadata, status: next.status } as KubernetesObject) as never;
      }
      if ('status' in cur) next.status = (cur as { status?: unknown }).status;
      if (cur.metadata?.deletionTimestamp && !(next.metadata?.finalizers ?? []).length) { this.remove(r, id); return next as never; }
      return this.write(r, next) as never;
    },
    watch: async () => { throw new Error('watch is not faked: the fake cluster serves its caches through `informers`'); },
    delete: async (r, o, q = {}) => {
      this.calls.push({ method: 'DELETE', plural: r.plural, name: o.name });
      const id = idOf(r, o.namespace, o.name);
      const cur = this.store.get(id);
      if (!cur) return false;
      if (q.uid && cur.metadata?.uid !== q.uid) throw fail('DELETE', 409, 'Conflict');
      if ((cur.metadata?.finalizers ?? []).length) this.write(r, { ...cur, metadata: { ...cur.metadata, deletionTimestamp: new Date() } });
      else this.remove(r, id);
      return true;
    },
  };

  readonly informers: InformerFactory = {
    cache: <T extends KubernetesObject>(r: Resource, o: { namespace?: string; labelSelector?: string } = {}): Cache<T> => {
      const v = this.view(r);
      if (!this.lag.has(r.plural)) this.catchUp(r);
      const inScope = (x: KubernetesObject) => !o.namespace || x.metadata?.namespace === o.namespace;
      return {
        synced: Promise.resolve(), isSynced: () => true,
        list: () => [...v.values()].filter(inScope) as T[],
        get: (key) => {
          const i = key.indexOf('/');
          return v.get(i < 0 ? idOf(r, undefined, key) : idOf(r, key.slice(0, i), key.slice(i + 1))) as T | undefined;
        },
        onChange: (cb) => { const l = this.listeners.get(r.plural) ?? []; l.push(cb as (x: KubernetesObject) => void); this.listeners.set(r.plural, l); },
      };
    },
    notSynced: () => null,
    synced: async () => undefined,
  };
}

/** Lists merged by key in a strategic-merge patch (the ones the controllers patch). */
const MERGE_KEYS: Record<string, string> = { containers: 'name', initContainers: 'name', conditions: 'type', ownerReferences: 'uid' };

/**
 * RFC 7386 merge (null deletes); with `strategic`, the lists of MERGE_KEYS merge element-wise by their key and
 * `$patch: delete` elements remove theirs, as the apiserver's strategic merge does for these fields.
 */
export function mergePatch(target: unknown, patch: unknown, strategic: boolean, field = ''): unknown {
  // metadata.finalizers is a merge list of strings: a strategic patch adds its entries.
  if (strategic && field === 'finalizers' && Array.isArray(patch)) return [...new Set([...(Array.isArray(target) ? target : []), ...patch])];
  if (strategic && Array.isArray(patch) && MERGE_KEYS[field]) {
    const k = MERGE_KEYS[field]!;
    const out = Array.isArray(target) ? [...(target as Record<string, unknown>[])] : [];
    for (const p of patch as Record<string, unknown>[]) {
      const i = out.findIndex((t) => t[k] === p[k]);
      if (p.$patch === 'delete') { if (i >= 0) out.splice(i, 1); continue; }
      if (i >= 0) out[i] = mergePatch(out[i], p, strategic) as Record<string, unknown>;
      else out.push(mergePatch({}, p, strategic) as Record<string, unknown>);
    }
    return out;
  }
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, v] of Object.entries(patch)) {
    if (v === null) delete out[key];
    else out[key] = mergePatch(out[key], v, strategic, key);
  }
  return out;
}

/** A queue that records keys; `drain` runs a reconcile over them until nothing is left (or a bound is hit). */
export class RecordingQueue implements Enqueue {
  readonly pending = new Set<string>();
  readonly delayed = new Map<string, number>();
  add(key: string): void { this.pending.add(key); }
  addAfter(key: string, ms: number): void { this.delayed.set(key, ms); }

  async drain(reconcile: (key: string) => Promise<{ requeueAfterMs?: number } | void>, maxRounds = 200): Promise<void> {
    for (let i = 0; this.pending.size > 0; i++) {
      if (i >= maxRounds) throw new Error(`queue not quiet after ${maxRounds} reconciles: ${[...this.pending].join(', ')}`);
      const key = this.pending.values().next().value as string;
      this.pending.delete(key);
      const r = await reconcile(key);
      if (r?.requeueAfterMs !== undefined) this.delayed.set(key, r.requeueAfterMs);
    }
  }
}
