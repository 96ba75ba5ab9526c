// The adapter boundary for SidecarSets: caches hold them in the internal (v1alpha1) form the pod webhook and the
// SidecarSet controller read, whichever version the informer lists (OpenKruise v1.9 reads v1beta1 natively,
// spec/openkruise-v1.9.md §1), so the same hashes, matching and revisions come out of either.
import { internalSidecarSet } from '../domain/conversion/sidecarset.js';
import { stripManagedFields, type CacheTransform } from './informer-factory.js';

export const sidecarSetCacheForm: CacheTransform = (obj) => internalSidecarSet(stripManagedFields(obj));
