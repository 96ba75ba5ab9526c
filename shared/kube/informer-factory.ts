// One informer per (resource, namespace, selectors) per process, shared by every controller that reads it — as
// client-go's SharedInformerFactory — so ten controllers watching pods cost one watch and one cache.
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { cacheHealth, type CacheHealth } from './cache-health.js';
import { startInformer, type Cache } from './informer.js';
import { restListWatch } from './list-watch.js';
import type { Resource } from './resources.js';
import type { KubeRest, ListOptions } from './rest.js';

export interface InformerFactory {
  /** The shared cache for this resource and scope; started on first use, stopped with the factory's signal. */
  cache<T extends KubernetesObject>(r: Resource, o?: ListOptions): Cache<T>;
  /** null once every cache handed out so far has listed, else which are still waiting. */
  notSynced(): string | null;
  /** Resolves when every cache handed out so far has listed once. */
  synced(): Promise<void>;
}

/** client-go reflectors list in pages of 500: the apiserver and this process never hold one huge answer at once. */
export const LIST_PAGE_SIZE = 500;

/**
 * What is cached of an object: everything but metadata.managedFields, which no controller reads and which is often
 * the largest part of a pod (controller-runtime's TransformStripManagedFields).
 */
export function stripManagedFields<T extends KubernetesObject>(obj: T): T {
  if (obj?.metadata?.managedFields) delete obj.metadata.managedFields;
  return obj;
}

/** What a cache keeps of an object it receives; the object passed in is the cache's to change or drop. */
export type CacheTransform = <T extends KubernetesObject>(obj: T) => T;

/** All pages of a list, as one list at the first page's resourceVersion; an expired continue token lists again unpaged. */
export async function listAllPages<T extends KubernetesObject>(rest: KubeRest, r: Resource, o: ListOptions, transform: CacheTransform = stripManagedFields): Promise<KubernetesListObject<T>> {
  const items: T[] = [];
  let first: KubernetesListObject<T> | undefined;
  let next: string | undefined;
  try {
    do {
      const page: KubernetesListObject<T> = await rest.list<T>(r, { ...o, limit: LIST_PAGE_SIZE, continue: next });
      first ??= page;
      for (const item of page.items) items.push(transform(item));
      next = page.metadata?._continue ?? (page.metadata as { continue?: string } | undefined)?.continue;
    } while (next);
  } catch (err) {
    if ((err as { code?: number }).code !== 410 || !first) throw err;
    const all = await rest.list<T>(r, o);
    return { ...all, items: all.items.map((i) => transform(i)) };
  }
  return { ...first, items };
}

/** One cache per name, as logs and health answers show it: `controllerrevisions.apps in kruise-system [labels app=x]`. */
function cacheName(r: Resource, o: ListOptions): string {
  const scope = o.namespace ? ` in ${o.namespace}` : '';
  const labels = o.labelSelector ? ` [labels ${o.labelSelector}]` : '';
  const fields = o.fieldSelector ? ` [fields ${o.fieldSelector}]` : '';
  return `${r.plural}${r.group ? `.${r.group}` : ''}${scope}${labels}${fields}`;
}

export function informerFactory(deps: {
  rest: KubeRest; signal: AbortSignal; log: Logger;
  /** What the cache of a resource keeps (default: all but managedFields); one process, one form per resource. */
  transform?: (r: Resource) => CacheTransform | undefined;
  /** Milliseconds since the epoch, for the caches' staleness; injected for tests. */
  now?: () => number;
}): InformerFactory & CacheHealth {
  const caches = new Map<string, Cache<KubernetesObject>>();
  const health = cacheHealth(() => caches);
  return {
    cache<T extends KubernetesObject>(r: Resource, o: ListOptions = {}): Cache<T> {
      const id = cacheName(r, o);
      let c = caches.get(id);
      if (!c) {
        const transform = deps.transform?.(r) ?? stripManagedFields;
        const source = restListWatch<KubernetesObject>(deps.rest, r, { namespace: o.namespace, labelSelector: o.labelSelector, fieldSelector: o.fieldSelector },
          { list: () => listAllPages(deps.rest, r, o, transform), transform });
        c = startInformer(source, deps.signal, { log: deps.log.child({ informer: id }), now: deps.now });
        caches.set(id, c);
      }
      return c as Cache<T>;
    },
    notSynced: health.notSynced,
    stale: health.stale,
    async synced() {
      await Promise.all([...caches.values()].map((c) => c.synced));
    },
  };
}
