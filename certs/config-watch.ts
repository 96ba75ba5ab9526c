// The objects whose caBundle the self-signed path keeps (the two webhook configurations, the CRDs converting through
// /convert), watched so that a change by someone else is answered at once, as upstream's webhook-controller answers
// its informers' events (spec/webhooks.md §6, spec/openkruise-v1.9.md §9.2): a `helm upgrade` that adds a webhook or
// re-applies a configuration without caBundle would otherwise fail TLS verification until the next resync (a
// minute). Each object is watched by name (fieldSelector metadata.name), the narrowest scope, which RBAC matches
// against the resourceNames of the webhook's ClusterRole.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { InformerFactory } from '../shared/kube/informer-factory.js';
import { resources, type Resource } from '../shared/kube/resources.js';
import type { ListOptions } from '../shared/kube/rest.js';
import { CONVERSION_CRDS } from './crd-conversion.js';
import { MUTATING_CONFIGURATION, VALIDATING_CONFIGURATION } from './webhook-config.js';

/** Each watched object: its resource and the list/watch scope naming it. */
export const WATCHED_OBJECTS: readonly { resource: Resource; options: ListOptions }[] = [
  { resource: resources.mutatingWebhookConfigurations, options: { fieldSelector: `metadata.name=${MUTATING_CONFIGURATION}` } },
  { resource: resources.validatingWebhookConfigurations, options: { fieldSelector: `metadata.name=${VALIDATING_CONFIGURATION}` } },
  ...CONVERSION_CRDS.map((name) => ({ resource: resources.customResourceDefinitions, options: { fieldSelector: `metadata.name=${name}` } })),
];

/**
 * The caches keep only what identifies an object: a change is a wake-up call, the sync reads the objects itself (a
 * CRD with its schema is hundreds of KiB).
 */
export function identityOnly<T extends KubernetesObject>(obj: T): T {
  const m = obj.metadata ?? {};
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name: m.name, uid: m.uid, resourceVersion: m.resourceVersion } } as T;
}

/**
 * Calls `onChange` whenever one of the watched objects is created or changed (its first listing included). Our own
 * writes echo back too; the sync they cause finds nothing to write.
 */
export function watchCaBundleObjects(informers: Pick<InformerFactory, 'cache'>, onChange: () => void): void {
  for (const { resource, options } of WATCHED_OBJECTS) {
    informers.cache(resource, options).onChange((_obj, verb) => {
      if (verb !== 'delete') onChange();
    });
  }
}
