// Tear-down of a real node from its recorded state, so `down` in another process can do it too: kubelet,
// kube-proxy and its iptables rules, pods (through CRI, which runs CNI DEL), containerd and its shims, mounts,
// cgroups, the bridge, and the host
// edits undone. Every step tolerates a part that never started.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { mountsUnder, removeContainerdLeftovers } from '../runtime/containerd.js';
import { killGroups } from '../runtime/process-groups.js';
import { KubeletCri } from '../runtime/test-cri.js';
import { cgroupPids, removeCgroupRoot, removeContainerLogLinks, removeEmptyDirs, removeHostsLine, restoreSysctls } from './host.js';
import { stopKubeProxy, type KubeProxyState } from './kube-proxy.js';
import { removePodNetwork, type PodNetwork } from './network.js';

export interface RealNodeState {
  name: string;
  /** Short per-run directory (unix socket paths are limited to 107 bytes). */
  dir: string;
  registry?: { host: string; pid: number };
  containerd?: { pid: number; socket: string; dir: string };
  kubelet?: { pid: number; port: number; healthzPort: number; log: string };
  kubeProxy?: KubeProxyState;
  network?: PodNetwork;
  cgroupRoot?: string;
  hostsLine?: string;
  /** Values before the kubelet changed them. */
  sysctls?: Record<string, string>;
  podLogsDir?: string;
  /** Host directories that did not exist before this run and are removed if empty (/var/log/containers, …). */
  createdDirs?: string[];
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

async function removePods(socket: string): Promise<void> {
  const cri = new KubeletCri(socket, '/nonexistent');
  try {
    await Promise.race([cri.removeAllSandboxes(), new Promise((r) => setTimeout(r, 30_000).unref())]);
  } catch { /* the shims are killed next anyway */ } finally { cri.close(); }
}

export async function stopRealNode(s: RealNodeState, opts: { keepLogsIn?: string } = {}): Promise<void> {
  // First the kubelet, or it would restart the pods removed below.
  if (s.kubelet) await killGroups([s.kubelet.pid]);
  // Its host-wide iptables rules go with it; the Services it routed are gone with the control plane anyway.
  if (s.kubeProxy) await stopKubeProxy(s.kubeProxy);
  if (s.containerd) {
    if (alive(s.containerd.pid)) await removePods(s.containerd.socket);
    await killGroups([s.containerd.pid]);
    const log = join(s.containerd.dir, 'containerd.log');
    if (opts.keepLogsIn && existsSync(log)) copyFileSync(log, join(opts.keepLogsIn, 'containerd.log'));
    removeContainerdLeftovers(s.containerd.dir, s.containerd.socket);
  }
  // The kubelet's tmpfs volumes (secrets, service-account tokens) under its root dir.
  for (const m of mountsUnder(s.dir)) {
    try { execFileSync('umount', ['-l', m], { stdio: 'ignore' }); } catch { /* already gone */ }
  }
  if (s.cgroupRoot) {
    for (const pid of cgroupPids(s.cgroupRoot)) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
    for (let i = 0; i < 20 && removeCgroupRoot(s.cgroupRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  }
  if (s.network) removePodNetwork(s.network);
  if (s.hostsLine) removeHostsLine(s.hostsLine);
  if (s.sysctls) restoreSysctls(s.sysctls);
  if (s.podLogsDir) removeContainerLogLinks(s.podLogsDir);
  if (s.createdDirs) removeEmptyDirs(s.createdDirs);
  if (s.registry) await killGroups([s.registry.pid]);
  rmSync(s.dir, { recursive: true, force: true });
}
