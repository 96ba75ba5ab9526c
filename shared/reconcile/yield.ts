// Keeping a controller's event loop responsive (issue 23: no reconcile holds it past ~100 ms). Every controller of the
// manager shares one loop with the informers, the health server and the metrics; a promise chain that never waits
// for I/O (a reconcile that finds nothing to write, a queue of such keys, a loop over thousands of objects) runs as
// one macrotask however long it takes. These helpers end the macrotask now and then so timers and I/O get their turn.

/** Resolves on the next turn of the event loop (after pending I/O callbacks and timers), not in a microtask. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The synchronous work a slice may do before yielding. */
export const SLICE_BUDGET_MS = 10;

/**
 * A budget tracker for a loop over many items: `await slice.tick()` once per item yields to the event loop whenever
 * the work since the last yield took SLICE_BUDGET_MS or more (the clock is read every 64 ticks only).
 */
export function timeSlicer(budgetMs = SLICE_BUDGET_MS): { tick(): Promise<void> | undefined } {
  let since = performance.now();
  let n = 0;
  return {
    tick() {
      if ((++n & 63) !== 0 || performance.now() - since < budgetMs) return undefined;
      return yieldToLoop().then(() => { since = performance.now(); });
    },
  };
}

/** `items.filter(keep)`, in slices that yield to the event loop. */
export async function filterSliced<T>(items: Iterable<T>, keep: (item: T) => boolean, budgetMs = SLICE_BUDGET_MS): Promise<T[]> {
  const out: T[] = [];
  const slicer = timeSlicer(budgetMs);
  for (const item of items) {
    if (keep(item)) out.push(item);
    const y = slicer.tick();
    if (y) await y;
  }
  return out;
}

/** `items.map(f)`, in slices that yield to the event loop. */
export async function mapSliced<T, U>(items: Iterable<T>, f: (item: T) => U, budgetMs = SLICE_BUDGET_MS): Promise<U[]> {
  const out: U[] = [];
  const slicer = timeSlicer(budgetMs);
  for (const item of items) {
    out.push(f(item));
    const y = slicer.tick();
    if (y) await y;
  }
  return out;
}
