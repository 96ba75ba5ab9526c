// client-node's ListWatch as a ListWatchSource, for caches listed through client-node's typed clients (the webhook's
// admission caches). Not for the node daemon: it would pull client-node's module graph into the bundle; shared
// informers use the REST source (list-watch.ts).
import { ListWatch, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { ListWatchSource } from './informer.js';

/** ListWatch for an API path (e.g. `/api/v1/namespaces`), listing with `listFn`. Does not start it. */
export function makeListWatch<T extends KubernetesObject>(
  kc: KubeConfig,
  path: string,
  listFn: () => Promise<KubernetesListObject<T>>,
  selectors: { labelSelector?: string; fieldSelector?: string } = {},
): ListWatchSource<T> {
  return new ListWatch<T>(path, new Watch(kc), listFn, false, selectors.labelSelector, selectors.fieldSelector);
}
