// The ImagePullJob controller's writes: NodeImage read-modify-write with conflict retry, a bounded pool for writing
// many NodeImages at once, and applying a pull-secret plan.
import type { V1Secret } from '@kubernetes/client-node';
import type { NodeImage, NodeImageSpec } from '../../shared/api/node-image.js';
import type { FreshView } from '../../shared/kube/fresh-view.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import { referencesOf, sourceKeyOf, withReferences, type SecretPlan } from './secret-copies.js';

export const FIELD_MANAGER = 'kruise-ts-imagepulljob';
const CONFLICT_RETRIES = 5;

/**
 * Applies `mutate` to the NodeImage and writes it, re-reading from the API on a conflict (another job or the
 * NodeImage controller wrote first, or the cached copy was stale). `mutate` returning undefined means "already as
 * wanted". A NodeImage that is gone is nothing to do.
 */
export async function updateNodeImage(rest: KubeRest, view: FreshView<NodeImage>, name: string,
  mutate: (ni: NodeImage) => NodeImageSpec | undefined): Promise<boolean> {
  let ni = view.get(name);
  for (let attempt = 0; ni; attempt++) {
    const spec = mutate(ni);
    if (!spec) return false;
    try {
      view.wrote(await rest.replace(resources.nodeImages, withTypeMeta(resources.nodeImages, { ...ni, spec }), { fieldManager: FIELD_MANAGER }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      if (!isConflict(err) || attempt >= CONFLICT_RETRIES) throw err;
      ni = await rest.find<NodeImage>(resources.nodeImages, { name });
    }
  }
  return false;
}

/**
 * Creates, updates and deletes pull-secret copies. A create that finds the copy already there (another job's
 * reconcile, or ours before the cache saw it, made it: names are derived from the source, secret-copies.ts) joins
 * that copy instead. Updates and deletes are conditional on the version read, so two jobs editing one shared copy's
 * references at once cannot lose each other's edit: the loser gets a conflict and its reconcile is retried.
 */
export async function applySecretPlan(rest: KubeRest, plan: SecretPlan): Promise<void> {
  for (const s of plan.create) {
    try {
      await rest.create(resources.secrets, s, { fieldManager: FIELD_MANAGER });
    } catch (err) {
      if (!isConflict(err)) throw err;
      const found = await rest.get<V1Secret>(resources.secrets, { namespace: s.metadata!.namespace!, name: s.metadata!.name! });
      if (sourceKeyOf(found) !== sourceKeyOf(s)) {
        throw new Error(`pull-secret copy ${s.metadata!.namespace}/${s.metadata!.name} exists as a copy of ${sourceKeyOf(found) || 'no source'}, not of ${sourceKeyOf(s)}`, { cause: err });
      }
      const joined = withReferences(found, [...referencesOf(found), ...referencesOf(s)]);
      await rest.replace(resources.secrets, withTypeMeta(resources.secrets, { ...joined, data: s.data ?? {} }), { fieldManager: FIELD_MANAGER });
    }
  }
  for (const s of plan.update) await rest.replace(resources.secrets, withTypeMeta(resources.secrets, s), { fieldManager: FIELD_MANAGER });
  for (const s of plan.delete) {
    await rest.delete(resources.secrets, { namespace: s.metadata!.namespace!, name: s.metadata!.name! }, { uid: s.metadata?.uid, resourceVersion: s.metadata?.resourceVersion });
  }
}
