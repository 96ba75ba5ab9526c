// How many admission workers a replica runs: the CPUs its container may use (cgroup v2 cpu.max, else the v1 CFS quota),
// else the CPUs this process may run on, and never fewer than 2, so that one review past its deadline never leaves
// the replica without a worker while its replacement starts.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export const MIN_WORKERS = 2;

type ReadFile = (path: string) => string;

const readOrUndefined = (read: ReadFile, path: string) => {
  try { return read(path).trim(); } catch { return undefined; }
};

/** CPUs of the container's CPU limit (rounded up), or undefined when none is set or readable. */
export function cgroupCpuLimit(read: ReadFile = (p) => readFileSync(p, 'utf8')): number | undefined {
  const v2 = readOrUndefined(read, '/sys/fs/cgroup/cpu.max');
  if (v2 !== undefined) {
    const [quota, period] = v2.split(/\s+/);
    if (quota === 'max') return undefined;
    const q = Number(quota), p = Number(period ?? 100_000);
    return q > 0 && p > 0 ? Math.ceil(q / p) : undefined;
  }
  const q = Number(readOrUndefined(read, '/sys/fs/cgroup/cpu/cpu.cfs_quota_us'));
  const p = Number(readOrUndefined(read, '/sys/fs/cgroup/cpu/cpu.cfs_period_us'));
  return q > 0 && p > 0 ? Math.ceil(q / p) : undefined;
}

/** `configured` (WEBHOOK_WORKERS) when set; else the CPU limit, at most the CPUs available, at least MIN_WORKERS. */
export function poolSize(configured: number | undefined, cpus: { limit: number | undefined; available: number } = { limit: cgroupCpuLimit(), available: availableParallelism() }): number {
  if (configured !== undefined) return configured;
  return Math.max(MIN_WORKERS, Math.min(cpus.limit ?? cpus.available, cpus.available));
}
