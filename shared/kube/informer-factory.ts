// One informer per (resource, namespace, selectors) per process, shared by every controller that reads it — as
// client-go's SharedInformerFactory — so ten controllers watching pods cost one watch and one cache.
import { ListWatch, Watch, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { startInformer, type Cache } from './informer.js';
import { resourcePath, type Resource } from './resources.js';
import type { KubeRest, ListOptions } from './rest.js';

export interface InformerFactory {
  /** The shared cache for this resource and scope; started on first use, stopped with the factory's signal. */
  cache<T extends KubernetesObject>(r: Resource, o?: ListOptions): Cache<T>;
  /** null once every cache handed out so far has listed, else which are still waiting. */
  notSynced(): string | null;
  /** Resolves when every cache handed out so far has listed once. */
  synced(): Promise<void>;
}

export function informerFactory(deps: { kc: KubeConfig; rest: KubeRest; signal: AbortSignal; log: Logger }): InformerFactory {
  const caches = new Map<string, Cache<KubernetesObject>>();
  return {
    cache<T extends KubernetesObject>(r: Resource, o: ListOptions = {}): Cache<T> {
      const id = [r.group, r.plural, o.namespace ?? '', o.labelSelector ?? '', o.fieldSelector ?? ''].join('|');
      let c = caches.get(id);
      if (!c) {
        const path = resourcePath(r, { namespace: o.namespace });
        const source = new ListWatch<KubernetesObject>(path, new Watch(deps.kc), () => deps.rest.list(r, o), false, o.labelSelector, o.fieldSelector);
        c = startInformer(source, deps.signal, { log: deps.log.child({ informer: id }) });
        caches.set(id, c);
      }
      return c as Cache<T>;
    },
    notSynced() {
      const waiting = [...caches.entries()].filter(([, c]) => !c.isSynced()).map(([id]) => id);
      return waiting.length ? `caches not synced: ${waiting.join(', ')}` : null;
    },
    async synced() {
      await Promise.all([...caches.values()].map((c) => c.synced));
    },
  };
}
