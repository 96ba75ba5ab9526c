import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cgroupCpuLimit, poolSize } from './size.js';

const files = (f: Record<string, string>) => (p: string) => {
  if (!(p in f)) throw new Error('ENOENT');
  return f[p]!;
};

test('the CPU limit from cgroup v2 cpu.max, else the v1 CFS quota, rounded up; none when unlimited', () => {
  assert.equal(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' })), 2);
  assert.equal(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': '400000 100000' })), 4);
  assert.equal(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': 'max 100000' })), undefined);
  assert.equal(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '300000', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000' })), 3);
  assert.equal(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000' })), undefined);
  assert.equal(cgroupCpuLimit(files({})), undefined);
});

test('the pool size: configured wins; else the limit within the CPUs available, at least 2', () => {
  assert.equal(poolSize(5, { limit: 1, available: 1 }), 5);
  assert.equal(poolSize(undefined, { limit: 1, available: 8 }), 2);
  assert.equal(poolSize(undefined, { limit: 4, available: 8 }), 4);
  assert.equal(poolSize(undefined, { limit: 16, available: 8 }), 8);
  assert.equal(poolSize(undefined, { limit: undefined, available: 6 }), 6);
  assert.equal(poolSize(undefined, { limit: undefined, available: 1 }), 2);
});
