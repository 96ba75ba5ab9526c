// Bounded fan-out for API writes: controllers and benchmarks issue hundreds of requests without opening hundreds of
// connections at once.

/** Runs `fn` over `items` with at most `limit` in flight; rejects with the first error after all settled. */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let firstError: unknown;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try { await fn(item); } catch (err) { firstError ??= err; }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (firstError !== undefined) throw firstError;
}

/**
 * Runs `fn` over `items` in slow-start batches (1, 2, 4, …; each batch concurrent, waiting for its slowest member),
 * as Kruise's and Kubernetes' controllers create objects: a request that keeps failing (a quota, a webhook) costs
 * one call, not one per item. Stops after the first batch with a failure. Returns how many succeeded and that error.
 */
export async function slowStart<T>(items: readonly T[], fn: (item: T) => Promise<unknown>): Promise<{ done: number; error?: unknown }> {
  let done = 0;
  for (let next = 0, batch = 1; next < items.length; batch *= 2) {
    const chunk = items.slice(next, next + batch);
    next += chunk.length;
    const results = await Promise.allSettled(chunk.map(fn));
    done += results.filter((r) => r.status === 'fulfilled').length;
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) return { done, error: failed.reason };
  }
  return { done };
}
