// Pod networking of the real node: one Linux bridge per run with host-local IPAM on a private /24, no
// masquerade and no portmap. Pods get one route, the Service range through the bridge's gateway address (where
// kube-proxy's rules send it on, to a pod or to the apiserver, which listens on that address), so pod traffic never
// leaves the node. Several runs may share a machine, so the bridge name and subnet are chosen per run.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface PodNetwork {
  /** CNI network name; libcni caches results under /var/lib/cni/results/<name>-*. */
  name: string;
  bridge: string;
  /** e.g. `10.88.17.0/24` */
  subnet: string;
  /** host-local's allocation files (default /var/lib/cni/networks, shared by every run). */
  ipamDir: string;
}

/** The first 10.88.N.0/24 (N from `start`, wrapping) that no route in `ipRoutes` (output of `ip -4 route`) covers. */
export function pickSubnet(ipRoutes: string, start: number): string {
  const used = new Set([...ipRoutes.matchAll(/^10\.88\.(\d+)\.0\/24\b/gm)].map((m) => Number(m[1])));
  for (let i = 0; i < 256; i++) {
    const n = (start + i) % 256;
    if (!used.has(n)) return `10.88.${n}.0/24`;
  }
  throw new Error('no free 10.88.N.0/24 subnet for the pod bridge');
}

/** Interface names are limited to 15 bytes. */
export const bridgeName = (runId: number): string => `kts${runId.toString(36)}`.slice(0, 15);

/** The cluster's Service range (kube-apiserver --service-cluster-ip-range); 10.96.0.1 is Service `kubernetes`. */
export const SERVICE_CIDR = '10.96.0.0/24';

/** The bridge's own address, the pods' gateway: `10.88.17.0/24` → `10.88.17.1` (host-local's default gateway). */
export const gatewayAddress = (net: Pick<PodNetwork, 'subnet'>): string => net.subnet.replace(/\.0\/24$/, '.1');

export function confList(net: PodNetwork): string {
  return JSON.stringify({
    cniVersion: '0.4.0',
    name: net.name,
    plugins: [{
      type: 'bridge', bridge: net.bridge, isGateway: true, ipMasq: false, hairpinMode: true,
      ipam: { type: 'host-local', ranges: [[{ subnet: net.subnet }]], routes: [{ dst: SERVICE_CIDR }], dataDir: net.ipamDir },
    }],
  }, null, 2);
}

export function choosePodNetwork(runId: number, ipamDir: string): PodNetwork {
  const routes = execFileSync('ip', ['-4', 'route'], { encoding: 'utf8' });
  return { name: `kts-${runId}`, bridge: bridgeName(runId), subnet: pickSubnet(routes, runId % 256), ipamDir };
}

/**
 * The bridge with its gateway address, made before the control plane starts so the apiserver can bind there (the
 * bridge plugin adopts an existing bridge that already has its gateway address). Recorded state first: `remove`
 * deletes it whether or not this finished.
 */
export function createPodBridge(net: PodNetwork): void {
  const ip = (args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  ip(['link', 'add', 'name', net.bridge, 'type', 'bridge']);
  ip(['addr', 'add', `${gatewayAddress(net)}/24`, 'dev', net.bridge]);
  ip(['link', 'set', net.bridge, 'up']);
}

/** The bridge plugin creates the bridge on the first pod and never removes it; a DEL that never ran leaves a cache entry. */
export function removePodNetwork(net: PodNetwork): void {
  try { execFileSync('ip', ['link', 'del', net.bridge], { stdio: 'ignore' }); } catch { /* never created, or gone */ }
  const cache = '/var/lib/cni/results';
  try {
    for (const f of readdirSync(cache)) if (f.startsWith(`${net.name}-`)) rmSync(join(cache, f), { force: true });
  } catch { /* no cache dir */ }
}
