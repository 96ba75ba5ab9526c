// Which pods name which SidecarSet in `kruise.io/sidecarset-injected-list`: the controller's one index, kept from the
// pod watch, so a reconcile visits only the SidecarSet's pods (upstream lists by selector, then filters by this list;
// the result is the same set of pods).
export class PodIndex {
  private readonly bySet = new Map<string, Set<string>>();
  private readonly byPod = new Map<string, readonly string[]>();

  /** Records the pod's injected SidecarSets; returns the ones it named before. */
  set(podKey: string, sets: readonly string[]): readonly string[] {
    const before = this.byPod.get(podKey) ?? [];
    if (before.length === sets.length && before.every((s, i) => s === sets[i])) return before;
    for (const s of before) {
      const keys = this.bySet.get(s);
      keys?.delete(podKey);
      if (keys?.size === 0) this.bySet.delete(s);
    }
    if (sets.length === 0) this.byPod.delete(podKey);
    else this.byPod.set(podKey, [...sets]);
    for (const s of sets) {
      let keys = this.bySet.get(s);
      if (!keys) this.bySet.set(s, (keys = new Set()));
      keys.add(podKey);
    }
    return before;
  }

  delete(podKey: string): readonly string[] {
    return this.set(podKey, []);
  }

  podsOf(set: string): ReadonlySet<string> {
    return this.bySet.get(set) ?? new Set();
  }
}
