// What the manager's Secret caches keep when no running controller reads Secret contents (the NodeImage controller
// only asks whether a pull-secret copy exists): the metadata, never `data` or `stringData` (review H2: no cache holds
// Secret bytes it does not use).
import type { KubernetesObject } from '@kubernetes/client-node';
import { stripManagedFields } from '../shared/kube/informer-factory.js';

export function secretMetadataOnly<T extends KubernetesObject>(obj: T): T {
  const o = stripManagedFields(obj) as T & { data?: unknown; stringData?: unknown };
  delete o.data;
  delete o.stringData;
  return o;
}
