// A host of its own on the real node's pod bridge: a network namespace with one veth on the bridge and an address of
// the pod subnet, as a pod has, running a process of this machine's. For tests whose traffic must come from another
// address than the node's own (the apiserver's calls to the webhook come from the bridge's gateway address): an
// attacking pod's traffic, without building an image for it. Its address is reserved in host-local's store (one
// file named by the address, as host-local writes them), so no pod is given it while it exists.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PodNetwork } from './network.js';

export interface BridgeHost {
  /** The network namespace: run a process there with `ip netns exec <netns> …`. */
  netns: string;
  address: string;
  remove(): void;
}

const ip = (args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** `host` (2–254) of the /24: `10.88.17.0/24`, 250 → `10.88.17.250`. */
export const hostAddress = (net: Pick<PodNetwork, 'subnet'>, host: number): string => net.subnet.replace(/\.0\/24$/, `.${host}`);

/** Adds the host `id` (a few letters, unique per run) at address `.host` of the bridge's subnet. */
export function addBridgeHost(net: PodNetwork, id: string, host = 250): BridgeHost {
  const netns = `kts-${id}`;
  const hostSide = `ktsh-${id}`.slice(0, 15);
  const address = hostAddress(net, host);
  const reservation = join(net.ipamDir, net.name, address);
  const remove = () => {
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
  } catch (err) {
    remove();
    throw new Error(`adding host ${address} on bridge ${net.bridge}`, { cause: err });
  }
  return { netns, address, remove };
}
