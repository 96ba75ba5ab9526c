// Read-your-writes over a shared informer cache. After a controller writes an object, its cache may still hold the
// older copy for a while; reconciling from that copy would redo the write (or, for counters such as an
// ImagePullJob's active pulls, overshoot a limit). Upstream kruise skips such reconciles with resourceVersion
// "expectations" and requeues after 5 s; this view instead answers with the newer of (what we wrote, what the
// cache has), so the next reconcile can proceed at once.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Cache } from './informer.js';
import { objectKey } from './keys.js';

/** How long a written copy may shadow the cache; afterwards the cache is trusted whatever it holds. */
const MAX_SHADOW_MS = 60_000;

export interface FreshView<T extends KubernetesObject> {
  get(key: string): T | undefined;
  list(): T[];
  /** Records the object the apiserver returned for our write. */
  wrote(obj: T): void;
}

/**
 * resourceVersions are opaque by contract, but the apiserver's are etcd revisions (decimal integers), which is
 * what upstream's expectations compare too; anything else is treated as "the cache caught up".
 */
function cacheCaughtUp(cached: KubernetesObject, written: KubernetesObject): boolean {
  const c = cached.metadata?.resourceVersion ?? '';
  const w = written.metadata?.resourceVersion ?? '';
  if (!/^\d+$/.test(c) || !/^\d+$/.test(w)) return true;
  return BigInt(c) >= BigInt(w);
}

export function freshView<T extends KubernetesObject>(cache: Cache<T>, now: () => number = Date.now): FreshView<T> {
  const written = new Map<string, { obj: T; at: number }>();
  // A delete seen by the cache ends any shadow: the written copy must not resurrect the object.
  cache.onChange((obj) => {
    const key = objectKey(obj);
    if (cache.get(key) === undefined) written.delete(key);
  });
  const pick = (key: string, cached: T | undefined): T | undefined => {
    const w = written.get(key);
    if (!w) return cached;
    if (now() - w.at > MAX_SHADOW_MS || (cached && cacheCaughtUp(cached, w.obj))) {
      written.delete(key);
      return cached;
    }
    return w.obj;
  };
  return {
    get: (key) => pick(key, cache.get(key)),
    list: () => {
      const out = cache.list().map((o) => pick(objectKey(o), o)!);
      return out;
    },
    wrote: (obj) => written.set(objectKey(obj), { obj, at: now() }),
  };
}
