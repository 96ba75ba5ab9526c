// A host of its own on the real node's pod bridge: a network namespace with one veth on the bridge and an address of
// the pod subnet, as a pod has, running processes of this machine's under a CPU limit, as a pod's container runs. For
// tests whose traffic must come from another address than the node's own (the apiserver's calls to the webhook come
// from the bridge's gateway address): an attacking pod's traffic, without building an image for it. Its address is
// reserved in host-local's store (one file named by the address, as host-local writes them), so no pod is given it
// while it exists.
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PodNetwork } from './network.js';

export interface BridgeHost {
  /** The network namespace: run a process there with `ip netns exec <netns> …`. */
  netns: string;
  address: string;
  /** `command` run in the namespace and in the host's CPU cgroup (its limit: `cpuMillis` of addBridgeHost). */
  spawn(command: string, args: readonly string[], options?: SpawnOptions): ChildProcess;
  remove(): void;
}

/** A CPU cgroup of `millis` (cgroup v2's cpu.max, or v1's CFS quota), for processes moved into it by pid. */
function cpuCgroup(name: string, millis: number): { add(pid: number): void; remove(): void } {
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  const dir = v2 ? join('/sys/fs/cgroup', name) : join('/sys/fs/cgroup/cpu', name);
  mkdirSync(dir, { recursive: true });
  if (v2) writeFileSync(join(dir, 'cpu.max'), `${millis * 100} 100000`);
  else {
    writeFileSync(join(dir, 'cpu.cfs_period_us'), '100000');
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(millis * 100));
  }
  return {
    add: (pid) => writeFileSync(join(dir, 'cgroup.procs'), String(pid)),
    remove: () => { try { rmdirSync(dir); } catch { /* a process still in it, or gone */ } },
  };
}

const ip = (args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** `host` (2–254) of the /24: `10.88.17.0/24`, 250 → `10.88.17.250`. */
export const hostAddress = (net: Pick<PodNetwork, 'subnet'>, host: number): string => net.subnet.replace(/\.0\/24$/, `.${host}`);

/** Adds the host `id` (a few letters, unique per run) at address `.host` of the bridge's subnet, `cpuMillis` of CPU. */
export function addBridgeHost(net: PodNetwork, id: string, o: { host?: number; cpuMillis: number }): BridgeHost {
  const host = o.host ?? 250;
  const netns = `kts-${id}`;
  const hostSide = `ktsh-${id}`.slice(0, 15);
  const address = hostAddress(net, host);
  const reservation = join(net.ipamDir, net.name, address);
  let cgroup: ReturnType<typeof cpuCgroup> | undefined;
  const remove = () => {
    cgroup?.remove();
    try { ip(['netns', 'del', netns]); } catch { /* never made */ }
    try { ip(['link', 'del', hostSide]); } catch { /* gone with the namespace */ }
    rmSync(reservation, { force: true });
  };
  try {
    mkdirSync(join(net.ipamDir, net.name), { recursive: true });
    writeFileSync(reservation, `${netns}\neth0`, { flag: 'wx' });
    ip(['netns', 'add', netns]);
    ip(['link', 'add', hostSide, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns]);
    ip(['link', 'set', hostSide, 'master', net.bridge]);
    ip(['link', 'set', hostSide, 'up']);
    ip(['-n', netns, 'addr', 'add', `${address}/24`, 'dev', 'eth0']);
    ip(['-n', netns, 'link', 'set', 'eth0', 'up']);
    ip(['-n', netns, 'link', 'set', 'lo', 'up']);
    cgroup = cpuCgroup(netns, o.cpuMillis);
  } catch (err) {
    remove();
    throw new Error(`adding host ${address} on bridge ${net.bridge}`, { cause: err });
  }
  const confined = cgroup!;
  return {
    netns, address, remove,
    spawn: (command, args, options = {}) => {
      // `ip netns exec` execs the command in its own process: the pid moved into the cgroup is the command's, and
      // what it starts inherits the cgroup.
      const child = spawn('ip', ['netns', 'exec', netns, command, ...args], options);
      if (child.pid !== undefined) confined.add(child.pid);
      return child;
    },
  };
}
