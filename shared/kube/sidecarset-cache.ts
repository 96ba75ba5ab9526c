// The adapter boundary for SidecarSets: caches hold them in the internal (v1alpha1) form the pod webhook and the
// SidecarSet controller read. The informers list and watch v1beta1, the storage version (resources.sidecarSets,
// spec/openkruise-v1.9.md §1), converted here with the rules of §2.2, so the same hashes, matching and revisions
// come out as from a v1alpha1 read; an object that says v1alpha1 is kept as it is.
import type { KubernetesObject } from '@kubernetes/client-node';
import { internalSidecarSet } from '../domain/conversion/sidecarset.js';
import { stripManagedFields, type CacheTransform } from './informer-factory.js';
import { apiVersionOf, resources } from './resources.js';

/** An item without apiVersion is in the version the informer reads (v1beta1). */
const typed = <T extends KubernetesObject>(o: T): T => (o.apiVersion ? o : { ...o, apiVersion: apiVersionOf(resources.sidecarSets), kind: o.kind ?? resources.sidecarSets.kind });

export const sidecarSetCacheForm: CacheTransform = (obj) => internalSidecarSet(typed(stripManagedFields(obj)));
