// Object keys and owner references. Keys follow client-go's MetaNamespaceKeyFunc: 'namespace/name', or 'name'
// for cluster-scoped objects, so they match informer cache keys.
import type { V1OwnerReference } from '@kubernetes/client-node';

export interface ObjectKeyed {
  metadata?: { name?: string; namespace?: string };
}

export interface Owned {
  metadata?: { ownerReferences?: V1OwnerReference[] };
}

export interface OwnerObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; uid?: string };
}

/** 'ns/name', or 'name' when the object has no namespace. Throws when there is no name. */
export function objectKey(obj: ObjectKeyed): string {
  const name = obj.metadata?.name;
  if (!name) throw new Error('object has no metadata.name');
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

export interface ParsedKey {
  /** Absent for cluster-scoped keys. */
  namespace?: string;
  name: string;
}

/** Inverse of objectKey. Rejects empty names and keys with more than one '/', as SplitMetaNamespaceKey does. */
export function parseKey(key: string): ParsedKey {
  const parts = key.split('/');
  if (parts.length === 1 && parts[0]) return { name: parts[0] };
  if (parts.length === 2 && parts[1]) return parts[0] ? { namespace: parts[0], name: parts[1] } : { name: parts[1] };
  throw new Error(`unexpected key format: ${JSON.stringify(key)}`);
}

/** The ownerReference marked controller: true, if any (metav1.GetControllerOf). */
export function controllerOf(obj: Owned): V1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** True when `owner` (matched by uid) is the controller of `obj` (metav1.IsControlledBy). */
export function isControlledBy(obj: Owned, owner: OwnerObject): boolean {
  const ref = controllerOf(obj);
  return ref !== undefined && owner.metadata?.uid !== undefined && ref.uid === owner.metadata.uid;
}

/**
 * A controller ownerReference to `owner` (metav1.NewControllerRef): controller and blockOwnerDeletion set, so
 * garbage collection deletes the dependant with its owner and foreground deletion waits for it.
 * apiVersion/kind come from the caller when the object lacks them (typed client responses often do).
 */
export function controllerRef(owner: OwnerObject, gvk?: { apiVersion: string; kind: string }): V1OwnerReference {
  const apiVersion = gvk?.apiVersion ?? owner.apiVersion;
  const kind = gvk?.kind ?? owner.kind;
  const { name, uid } = owner.metadata ?? {};
  if (!apiVersion || !kind || !name || !uid) throw new Error('owner needs apiVersion, kind, metadata.name and metadata.uid');
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

/** Non-controller ownerReference (no blockOwnerDeletion), e.g. for objects kept alive by several owners. */
export function ownerRef(owner: OwnerObject, gvk?: { apiVersion: string; kind: string }): V1OwnerReference {
  const { apiVersion, kind, name, uid } = controllerRef(owner, gvk);
  return { apiVersion, kind, name, uid };
}

/** `refs` with the reference to `owner` (by uid) added or replaced; never mutates `refs`. */
export function withOwnerRef(refs: readonly V1OwnerReference[] | undefined, ref: V1OwnerReference): V1OwnerReference[] {
  const rest = (refs ?? []).filter((r) => r.uid !== ref.uid);
  return [...rest, ref];
}
