// When each pod of a SidecarSet's batch was first held back for its pre-pull (prepull.ts), per SidecarSet hash, so
// the wait is bounded across reconciles. A new hash starts afresh; bounded by the matched pods.

export class PrePullWaits {
  private readonly bySet = new Map<string, { hash: string; since: Map<string, number> }>();

  /** When `podKey` was first asked about for `hash` (now, the first time). */
  since(set: string, hash: string, podKey: string, now: number): number {
    let e = this.bySet.get(set);
    if (!e || e.hash !== hash) this.bySet.set(set, (e = { hash, since: new Map() }));
    let t = e.since.get(podKey);
    if (t === undefined) e.since.set(podKey, (t = now));
    return t;
  }

  /** The pod was updated (or left): its wait is over. */
  done(set: string, podKey: string): void {
    this.bySet.get(set)?.since.delete(podKey);
  }

  deleteSet(set: string): void {
    this.bySet.delete(set);
  }
}
