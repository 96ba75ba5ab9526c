// What this process learned about resizes the cluster will not do, per SidecarSet and hash, so they are not retried
// on every reconcile: a cluster without pods/resize (404/405), a pod whose resize the API refused (400/403/422), and
// the pods already reported as Infeasible. A new hash (the SidecarSet changed) starts afresh, as does a restart of the
// manager (one more try each: bounded). Bounded by the matched pods.

interface Entry {
  hash: string;
  unsupported?: string;
  refused: Map<string, string>;
  reported: Set<string>;
}

export class ResizeRefusals {
  private readonly bySet = new Map<string, Entry>();

  private entry(set: string, hash: string): Entry {
    let e = this.bySet.get(set);
    if (!e || e.hash !== hash) this.bySet.set(set, (e = { hash, refused: new Map(), reported: new Set() }));
    return e;
  }

  private current(set: string, hash: string): Entry | undefined {
    const e = this.bySet.get(set);
    return e && e.hash === hash ? e : undefined;
  }

  unsupported(set: string, hash: string): string | undefined {
    return this.current(set, hash)?.unsupported;
  }

  markUnsupported(set: string, hash: string, why: string): void {
    this.entry(set, hash).unsupported = why;
  }

  refused(set: string, hash: string, podKey: string): string | undefined {
    return this.current(set, hash)?.refused.get(podKey);
  }

  refuse(set: string, hash: string, podKey: string, why: string): void {
    this.entry(set, hash).refused.set(podKey, why);
  }

  /** Pods refused at `hash`, sorted by key. */
  refusedPods(set: string, hash: string): [string, string][] {
    return [...(this.current(set, hash)?.refused ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** True the first time `podKey` is reported (e.g. Infeasible) for `hash`. */
  firstReport(set: string, hash: string, podKey: string): boolean {
    const e = this.entry(set, hash);
    if (e.reported.has(podKey)) return false;
    e.reported.add(podKey);
    return true;
  }

  forgetPod(set: string, podKey: string): void {
    const e = this.bySet.get(set);
    e?.refused.delete(podKey);
    e?.reported.delete(podKey);
  }

  deleteSet(set: string): void {
    this.bySet.delete(set);
  }
}
