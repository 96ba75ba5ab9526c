// Latency summary for the benchmark (nearest-rank percentiles).
export interface Summary {
  requests: number;
  failures: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p99ms: number;
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sortedMs.length);
  return sortedMs[Math.min(sortedMs.length, Math.max(1, rank)) - 1]!;
}

export function summarize(latenciesMs: number[], failures: number, seconds: number): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return { requests: sorted.length, failures, seconds, rps: sorted.length / seconds, p50ms: percentile(sorted, 50), p99ms: percentile(sorted, 99) };
}
