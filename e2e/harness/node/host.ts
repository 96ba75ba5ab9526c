// Host state a kubelet needs or changes, each paired with its undo so tear-down leaves the machine as found:
// an /etc/hosts line (the apiserver reaches the kubelet by node name on loopback), the kernel sysctls the
// kubelet sets at start, its cgroup root in every v1 hierarchy, and its symlinks in /var/log/containers.
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HOSTS = '/etc/hosts';
const CGROUP_FS = '/sys/fs/cgroup';
const CONTAINER_LOG_LINKS = '/var/log/containers';

/** One line per run, tagged, so concurrent runs that name their node alike never remove each other's line. */
export const hostsLine = (name: string, tag: string): string => `127.0.0.1 ${name} # ${tag}`;

export function withHostsLine(text: string, line: string): string {
  const lines = text.split('\n').filter((l) => l !== line);
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return `${[...lines, line].join('\n')}\n`;
}

export const withoutHostsLine = (text: string, line: string): string => text.split('\n').filter((l) => l !== line).join('\n');

export function addHostsLine(line: string, file = HOSTS): void {
  writeFileSync(file, withHostsLine(readFileSync(file, 'utf8'), line));
}

export function removeHostsLine(line: string, file = HOSTS): void {
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  if (text.includes(line)) writeFileSync(file, withoutHostsLine(text, line));
}

/**
 * What the kubelet's setupKernelTunables writes unless protectKernelDefaults is on (which refuses to start
 * instead), and ip_forward, which the CNI bridge plugin turns on for a gateway bridge.
 */
export const NODE_SYSCTLS = ['vm/overcommit_memory', 'vm/panic_on_oom', 'kernel/panic', 'kernel/panic_on_oops',
  'kernel/keys/root_maxkeys', 'kernel/keys/root_maxbytes', 'net/ipv4/ip_forward'];

export function readSysctls(keys: string[] = NODE_SYSCTLS): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    try { out[k] = readFileSync(`/proc/sys/${k}`, 'utf8').trim(); } catch { /* not on this kernel */ }
  }
  return out;
}

export function restoreSysctls(saved: Record<string, string>): void {
  for (const [k, v] of Object.entries(saved)) {
    try {
      if (readFileSync(`/proc/sys/${k}`, 'utf8').trim() !== v) writeFileSync(`/proc/sys/${k}`, v);
    } catch { /* read-only or gone */ }
  }
}

const hierarchies = (): string[] => {
  try { return readdirSync(CGROUP_FS).map((h) => join(CGROUP_FS, h)); } catch { return []; }
};

/**
 * The kubelet refuses a cgroupRoot that does not exist. A new cpuset cgroup has no cpus/mems, so they are
 * copied from the top, or no process could join anything below it.
 */
export function createCgroupRoot(root: string): void {
  for (const h of hierarchies()) {
    const dir = join(h, root);
    try { mkdirSync(dir, { recursive: true }); } catch { continue; /* e.g. a read-only hierarchy */ }
    for (const f of ['cpuset.cpus', 'cpuset.mems']) {
      if (existsSync(join(h, f))) writeFileSync(join(dir, f), readFileSync(join(h, f), 'utf8'));
    }
  }
}

function subdirsDeepestFirst(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) out.push(...subdirsDeepestFirst(join(dir, e.name)));
  out.push(dir);
  return out;
}

/** Pids still in the tree; after the shims are killed there should be none. */
export function cgroupPids(root: string): number[] {
  const pids = new Set<number>();
  for (const h of hierarchies()) {
    const dir = join(h, root);
    if (!existsSync(dir)) continue;
    for (const d of subdirsDeepestFirst(dir)) {
      try {
        for (const p of readFileSync(join(d, 'cgroup.procs'), 'utf8').split('\n')) if (p) pids.add(Number(p));
      } catch { /* removed meanwhile */ }
    }
  }
  return [...pids];
}

/** rmdir bottom-up in every hierarchy; returns the directories that could not be removed. */
export function removeCgroupRoot(root: string): string[] {
  const left: string[] = [];
  for (const h of hierarchies()) {
    const dir = join(h, root);
    if (!existsSync(dir)) continue;
    for (const d of subdirsDeepestFirst(dir)) {
      try { rmdirSync(d); } catch { left.push(d); }
    }
  }
  return left;
}

/**
 * containerd 1.6 puts shim sockets in /run/containerd/s and the shims keep runc's state in
 * /run/containerd/runc/<namespace>, whatever its own state dir; removed if empty and made by this run.
 */
export const SHIM_DIRS = ['/run/containerd/s', '/run/containerd/runc/k8s.io', '/run/containerd/runc', '/run/containerd'];

export function removeEmptyDirs(dirs: string[]): void {
  for (const d of dirs) {
    try { rmdirSync(d); } catch { /* not empty (another containerd), or absent */ }
  }
}

/** The kubelet links every container log here (a fixed path); the links of our pods point into `podLogsDir`. */
export function removeContainerLogLinks(podLogsDir: string): void {
  let entries: string[];
  try { entries = readdirSync(CONTAINER_LOG_LINKS); } catch { return; }
  for (const e of entries) {
    const p = join(CONTAINER_LOG_LINKS, e);
    try {
      if (readlinkSync(p).startsWith(`${podLogsDir}/`)) rmSync(p, { force: true });
    } catch { /* not a link, or gone */ }
  }
}
