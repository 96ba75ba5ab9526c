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

/** Bytes held by one source or group, and the charges open on it (an entry is dropped only when both are 0). */
interface Tally { bytes: number; refs: number }

/** The tallies of sources or groups that hold bytes or open charges: entries are not re-made per request. */
class Tallies {
  private readonly map = new Map<string, Tally>();
  open(key: string): Tally {
    let t = this.map.get(key);
    if (!t) this.map.set(key, (t = { bytes: 0, refs: 0 }));
    t.refs++;
    return t;
  }
  close(key: string, t: Tally): void {
    // Kept while a charge is open, so the map only holds keys in use (no entry per address ever seen).
    if (--t.refs === 0 && t.bytes === 0) this.map.delete(key);
  }
  bytes(key: string): number {
    return this.map.get(key)?.bytes ?? 0;
  }
}

interface Totals { used: number; peak: number }

// A class, not an object literal with a getter and closures: one of these is made per request, and a literal's
// accessor cost ~3 µs each on Node 20 (measured), a prototype getter nothing.
class RequestCharge implements Charge {
  private held = 0;
  private released = false;
  constructor(
    private readonly totals: Totals,
    private readonly cap: number,
    private readonly shares: BudgetShares,
    private readonly sources: Tallies,
    private readonly sourceKey: string,
    private readonly source: Tally,
    private readonly groups: Tallies,
    private readonly group: BudgetGroup | undefined,
    private readonly groupTally: Tally | undefined,
  ) {}

  get bytes(): number {
    return this.held;
  }

  tryAdd(n: number): boolean {
    if (this.released) return false;
    const t = this.totals;
    const small = this.held + n <= this.shares.smallRequest;
    if (t.used + n > (small ? this.cap : this.cap - this.shares.smallReserve)) return false;
    if (this.source.bytes + n > this.shares.perSource) return false;
    if (this.groupTally && this.groupTally.bytes + n > this.group!.cap) return false;
    this.held += n;
    t.used += n;
    if (t.used > t.peak) t.peak = t.used;
    this.source.bytes += n;
    if (this.groupTally) this.groupTally.bytes += n;
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.totals.used -= this.held;
    this.source.bytes -= this.held;
    this.sources.close(this.sourceKey, this.source);
    if (this.groupTally) {
      this.groupTally.bytes -= this.held;
      this.groups.close(this.group!.name, this.groupTally);
    }
    this.held = 0;
  }
}

export function byteBudget(cap: number, shares: BudgetShares = unshared(cap)): ByteBudget {
  if (shares.smallReserve >= cap) throw new Error(`byte budget: the small-request reserve (${shares.smallReserve}) must be below the cap (${cap})`);
  const totals: Totals = { used: 0, peak: 0 };
  const sources = new Tallies();
  const groups = new Tallies();
  return {
    cap,
    shares,
    get used() { return totals.used; },
    get peak() { return totals.peak; },
    usedBy: (source) => sources.bytes(source),
    usedIn: (group) => groups.bytes(group.name),
    charge: (source, group) =>
      new RequestCharge(totals, cap, shares, sources, source, sources.open(source), groups, group, group ? groups.open(group.name) : undefined),
  };
}
