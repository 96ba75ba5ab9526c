// Object keys by the UID of every owner they reference, kept from informer events, so a reconcile reads the pods and
// PVCs of one CloneSet without scanning all of them (upstream's ownerRef UID field index).
import type { KubernetesObject } from '@kubernetes/client-node';

export class OwnerIndex {
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly ownersOf = new Map<string, string[]>();

  /** Records `live` under `key` (undefined: the object is gone). */
  update(key: string, live: KubernetesObject | undefined): void {
    for (const uid of this.ownersOf.get(key) ?? []) this.byOwner.get(uid)?.delete(key);
    this.ownersOf.delete(key);
    if (!live) return;
    const uids = (live.metadata?.ownerReferences ?? []).map((r) => r.uid);
    for (const uid of uids) {
      let s = this.byOwner.get(uid);
      if (!s) this.byOwner.set(uid, (s = new Set()));
      s.add(key);
    }
    this.ownersOf.set(key, uids);
  }

  keys(uid: string): string[] {
    return [...(this.byOwner.get(uid) ?? [])];
  }
}
