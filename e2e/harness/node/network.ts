// Pod networking of the real node: one Linux bridge per run with host-local IPAM on a private /24, no
// masquerade, no portmap and no routes in the pods, so pod traffic never leaves the bridge. Several runs may
// share a machine, so the bridge name and subnet are chosen per run.
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

export function confList(net: PodNetwork): string {
  return JSON.stringify({
    cniVersion: '0.4.0',
    name: net.name,
    plugins: [{
      type: 'bridge', bridge: net.bridge, isGateway: true, ipMasq: false, hairpinMode: true,
      ipam: { type: 'host-local', ranges: [[{ subnet: net.subnet }]], routes: [], dataDir: net.ipamDir },
    }],
  }, null, 2);
}

export function choosePodNetwork(runId: number, ipamDir: string): PodNetwork {
  const routes = execFileSync('ip', ['-4', 'route'], { encoding: 'utf8' });
  return { name: `kts-${runId}`, bridge: bridgeName(runId), subnet: pickSubnet(routes, runId % 256), ipamDir };
}

/** The bridge plugin creates the bridge on the first pod and never removes it; a DEL that never ran leaves a cache entry. */
export function removePodNetwork(net: PodNetwork): void {
  try { execFileSync('ip', ['link', 'del', net.bridge], { stdio: 'ignore' }); } catch { /* never created, or gone */ }
  const cache = '/var/lib/cni/results';
  try {
    for (const f of readdirSync(cache)) if (f.startsWith(`${net.name}-`)) rmSync(join(cache, f), { force: true });
  } catch { /* no cache dir */ }
}
