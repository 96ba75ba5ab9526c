// A byte semaphore over what the admission server holds for its requests: the bodies being buffered and the replies
// not yet handed to the kernel. The per-request body limit (7 MiB) alone let many slow or stalled bodies together fill
// the heap (review H1); one budget shared by everyone let two stalled 32 MiB /convert bodies, or one client's unread
// replies, take it all (review N-H2, N-H3). So each request holds a Charge that names its source address and, for
// /convert, its group: a source, a group and big requests each get only a share of the cap.

/** How the cap is shared; every value in bytes. */
export interface BudgetShares {
  /** The most one source address may hold at once, over all its requests. */
  readonly perSource: number;
  /** A request holding at most this much (body plus reply) is small: ordinary pod reviews are a few dozen KiB. */
  readonly smallRequest: number;
  /** This much of the cap only small requests may use: big bodies holding the rest cannot stop ordinary reviews. */
  readonly smallReserve: number;
}

/** A named part of the budget with its own cap over all its requests (e.g. /convert). */
export interface BudgetGroup {
  readonly name: string;
  readonly cap: number;
}

/** What one request holds: its body's bytes as they arrive, then its reply's. */
export interface Charge {
  /** Bytes held now. */
  readonly bytes: number;
  /** Takes `n` more bytes if every share allows it, else takes nothing and returns false. Never waits. */
  tryAdd(n: number): boolean;
  /** Gives back everything held; later calls do nothing. The request's response close calls it. */
  release(): void;
}

export interface ByteBudget {
  /** The most bytes that may be held at once. */
  readonly cap: number;
  readonly shares: BudgetShares;
  /** Bytes held now. */
  readonly used: number;
  /** The most bytes ever held at once: what tests and benchmarks compare with the cap. */
  readonly peak: number;
  /** Bytes held now by requests from `source`. */
  usedBy(source: string): number;
  /** Bytes held now by the requests of `group`. */
  usedIn(group: BudgetGroup): number;
  /** A new, empty charge for one request from `source` (in `group`, if given). */
  charge(source: string, group?: BudgetGroup): Charge;
}

/** Without shares: one source may take the whole cap, and there is no reserve (a plain semaphore). */
const unshared = (cap: number): BudgetShares => ({ perSource: cap, smallRequest: 0, smallReserve: 0 });

export function byteBudget(cap: number, shares: BudgetShares = unshared(cap)): ByteBudget {
  if (shares.smallReserve >= cap) throw new Error(`byte budget: the small-request reserve (${shares.smallReserve}) must be below the cap (${cap})`);
  let used = 0;
  let peak = 0;
  // Only sources and groups that hold bytes have an entry, so the maps cannot grow with addresses seen in the past.
  const bySource = new Map<string, number>();
  const byGroup = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, n: number) => {
    const v = (m.get(k) ?? 0) + n;
    if (v === 0) m.delete(k);
    else m.set(k, v);
  };
  return {
    cap,
    shares,
    get used() { return used; },
    get peak() { return peak; },
    usedBy: (source) => bySource.get(source) ?? 0,
    usedIn: (group) => byGroup.get(group.name) ?? 0,
    charge(source, group) {
      let held = 0;
      let released = false;
      return {
        get bytes() { return held; },
        tryAdd(n) {
          if (released) return false;
          const small = held + n <= shares.smallRequest;
          if (used + n > (small ? cap : cap - shares.smallReserve)) return false;
          if ((bySource.get(source) ?? 0) + n > shares.perSource) return false;
          if (group && (byGroup.get(group.name) ?? 0) + n > group.cap) return false;
          held += n;
          used += n;
          if (used > peak) peak = used;
          add(bySource, source, n);
          if (group) add(byGroup, group.name, n);
          return true;
        },
        release() {
          if (released) return;
          released = true;
          used -= held;
          add(bySource, source, -held);
          if (group) add(byGroup, group.name, -held);
          held = 0;
        },
      };
    },
  };
}
