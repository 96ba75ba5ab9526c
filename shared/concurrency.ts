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
