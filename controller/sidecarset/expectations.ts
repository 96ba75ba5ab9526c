// Update expectations (kruise pkg/util/expectations UpdateExpectations): pods this process updated to a SidecarSet
// hash that its cache has not shown with that hash yet. Acting on such a stale cache would count the pods as still
// old and update them, or others, again.

interface Pending { revision: string; pods: Set<string> }

export class UpdateExpectations {
  private readonly bySet = new Map<string, Pending>();

  /** Records that `podKey` was written with SidecarSet `set`'s hash `revision`. A new revision starts afresh. */
  expectUpdated(set: string, revision: string, podKey: string): void {
    let p = this.bySet.get(set);
    if (!p || p.revision !== revision) this.bySet.set(set, (p = { revision, pods: new Set() }));
    p.pods.add(podKey);
  }

  /** The cache shows `podKey` with hash `podHash`; drops the expectation once it matches. */
  observe(set: string, revision: string, podKey: string, podHash: string): void {
    const p = this.bySet.get(set);
    if (!p) return;
    if (p.revision === revision && podHash === revision) p.pods.delete(podKey);
    if (p.revision !== revision || p.pods.size === 0) this.bySet.delete(set);
  }

  /** The pod is gone (or no longer matched): nothing to wait for. */
  forget(set: string, podKey: string): void {
    this.bySet.get(set)?.pods.delete(podKey);
  }

  /** Pods still awaited for `revision`; empty when satisfied (or when they were for another revision). */
  unsatisfied(set: string, revision: string): string[] {
    const p = this.bySet.get(set);
    return p && p.revision === revision ? [...p.pods] : [];
  }

  /** Keys awaited for the SidecarSet whatever the revision, e.g. to drop the ones that left the matched set. */
  pending(set: string): string[] {
    return [...(this.bySet.get(set)?.pods ?? [])];
  }

  deleteSet(set: string): void {
    this.bySet.delete(set);
  }
}
