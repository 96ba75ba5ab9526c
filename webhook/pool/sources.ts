// What the pool (pool.ts) knows of the clients it serves, by source address: which are active, and which recently
// sent a request that ran past its deadline or killed its worker.
//
// Active: sent a request within ACTIVE_MS. While several are active each may hold only its share of the workers (at
// least one), so an expensive client cannot keep `size` workers, and the CPU they draw, busy while the apiserver's
// reviews wait for one; alone, a source may use all `size` (the apiserver's own throughput), and only then does the
// pool pipeline jobs. Penalized: such a source never gets the last idle worker, whichever workers are restarting
// meanwhile (the spare would otherwise go to it while the others restart), and is never pipelined.
export const ACTIVE_MS = 2_000;
export const PENALTY_MS = 60_000;

export class Sources {
  private readonly lastSeen = new Map<string, number>();
  private readonly penalties = new Map<string, number>();

  seen(source: string, now = Date.now()): void {
    this.lastSeen.set(source, now);
  }

  /** How many sources sent a request within ACTIVE_MS (at least 1). */
  active(now = Date.now()): number {
    let n = 0;
    for (const [source, at] of this.lastSeen) {
      if (now - at <= ACTIVE_MS) n++;
      else this.lastSeen.delete(source);
    }
    return Math.max(1, n);
  }

  penalize(source: string, now = Date.now()): void {
    this.penalties.set(source, now + PENALTY_MS);
  }

  penalized(source: string, now = Date.now()): boolean {
    const until = this.penalties.get(source);
    if (until === undefined) return false;
    if (until > now) return true;
    this.penalties.delete(source);
    return false;
  }
}
