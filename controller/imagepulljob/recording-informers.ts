// For tests: an informer factory that records the scope each cache is asked for and holds the FakeCluster's caches
// to that scope (the fake serves every object of a resource to every cache), so a controller that relies on an
// object outside the namespace it asked for fails its test as it would fail in a cluster.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Cache } from '../../shared/kube/informer.js';
import type { InformerFactory } from '../../shared/kube/informer-factory.js';
import type { ListOptions } from '../../shared/kube/rest.js';

export interface CacheRequest { plural: string; namespace?: string; labelSelector?: string; fieldSelector?: string }

export function recordingInformers(inner: InformerFactory): { informers: InformerFactory; requests: CacheRequest[] } {
  const requests: CacheRequest[] = [];
  const informers: InformerFactory = {
    ...inner,
    cache<T extends KubernetesObject>(r: Parameters<InformerFactory['cache']>[0], o: ListOptions = {}): Cache<T> {
      requests.push({ plural: r.plural, ...(o.namespace ? { namespace: o.namespace } : {}),
        ...(o.labelSelector ? { labelSelector: o.labelSelector } : {}), ...(o.fieldSelector ? { fieldSelector: o.fieldSelector } : {}) });
      const c = inner.cache<T>(r, o);
      if (!o.namespace) return c;
      const inScope = (x: T | undefined) => x?.metadata?.namespace === o.namespace;
      return {
        ...c, synced: c.synced, isSynced: () => c.isSynced(),
        list: () => c.list().filter(inScope),
        get: (key) => { const x = c.get(key); return inScope(x) ? x : undefined; },
        onChange: (cb) => c.onChange((x, verb) => { if (inScope(x)) cb(x, verb); }),
      };
    },
  };
  return { informers, requests };
}
