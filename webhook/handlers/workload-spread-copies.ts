// Per-process state of the WorkloadSpread pod steps (upstream: util.GlobalCache and util.GlobalKeyedMutex): the
// last status this process wrote for each WorkloadSpread, newer than the informer's until the watch catches up, and
// one lock per WorkloadSpread so a process never races itself on the status.
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';

/** Copies kept; the oldest is forgotten first (it only costs a possible Conflict and a fresh read). */
const MAX_COPIES = 1000;

const rv = (ws: WorkloadSpread): bigint => {
  try { return BigInt(ws.metadata?.resourceVersion ?? '0'); } catch { return 0n; }
};

export function lastWrittenCopies() {
  const copies = new Map<string, WorkloadSpread>();
  return {
    /** The newer (numeric resourceVersion) of the informer's copy and this process's last write. */
    newer(key: string, informer: WorkloadSpread): WorkloadSpread {
      const mine = copies.get(key);
      return mine && rv(mine) > rv(informer) ? mine : informer;
    },
    remember(key: string, ws: WorkloadSpread): void {
      copies.delete(key);
      copies.set(key, ws);
      if (copies.size > MAX_COPIES) copies.delete(copies.keys().next().value as string);
    },
  };
}

/** Runs `f` after every earlier call with the same key has settled. */
export function keyedMutex() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, f: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(f, f);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => { if (tails.get(key) === tail) tails.delete(key); });
    return run;
  };
}
