// Scale and resourceVersion expectations of the CloneSet controller (spec/cloneset.md §3.1; kruise pkg/util/
// expectations): guards against acting on a cache that has not yet shown this process's own writes, which would
// create pods twice or update a pod again from its old state.

/** How long an unsatisfied expectation holds a CloneSet back before it is reported as leaked. */
export const EXPECTATION_TIMEOUT_MS = 5 * 60_000;

interface Pending { names: Set<string>; since: number }

/** Names of pods being created or deleted, per CloneSet key; recorded before each call, dropped when the cache shows it. */
export class ScaleExpectations {
  private readonly byKey = new Map<string, Pending>();
  constructor(private readonly now: () => number) {}

  expect(key: string, name: string): void {
    let p = this.byKey.get(key);
    if (!p) this.byKey.set(key, (p = { names: new Set(), since: this.now() }));
    p.names.add(name);
  }

  observe(key: string, name: string): void {
    const p = this.byKey.get(key);
    if (!p) return;
    p.names.delete(name);
    if (p.names.size === 0) this.byKey.delete(key);
  }

  /** undefined when satisfied; else how long they have been waited for. */
  waitedMs(key: string): number | undefined {
    const p = this.byKey.get(key);
    return p ? this.now() - p.since : undefined;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}

/** The resourceVersion each pod (by UID) was written at; the cache must reach it before the pod is read again. */
export class ResourceVersionExpectations {
  private readonly byUid = new Map<string, { rv: string; since: number }>();
  constructor(private readonly now: () => number) {}

  expect(uid: string | undefined, rv: string | undefined): void {
    if (uid && rv) this.byUid.set(uid, { rv, since: this.now() });
  }

  /** True while the cached `rv` is older than the written one (numeric compare); clears the entry once caught up. */
  isStale(uid: string | undefined, rv: string | undefined): boolean {
    if (!uid) return false;
    const e = this.byUid.get(uid);
    if (!e) return false;
    const older = rv !== undefined && /^\d+$/.test(rv) && /^\d+$/.test(e.rv) && BigInt(rv) < BigInt(e.rv);
    if (!older || this.now() - e.since > EXPECTATION_TIMEOUT_MS) {
      this.byUid.delete(uid);
      return false;
    }
    return true;
  }

  forget(uid: string | undefined): void {
    if (uid) this.byUid.delete(uid);
  }
}
