// kube-proxy (iptables mode, built from the same Kubernetes modules) on the real node, so Services route as in a
// real cluster: pods reach the apiserver through Service `kubernetes` (10.96.0.1 → the bridge's gateway address,
// where the apiserver listens) and the apiserver reaches the webhook through Service `kruise-webhook-service`.
// iptables, not nftables: kube-proxy's nftables mode runs the `nft` program, which this image (and CI) lacks.
// Its rules are global to the host: `stopKubeProxy` runs `kube-proxy --cleanup` and then removes any KUBE-* chain
// that was not there before the run, with the rules jumping to it (the cleanup leaves KUBE-FIREWALL, jumped to from
// INPUT and OUTPUT, and its canary chains).
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueClientCert, kubeconfig } from '../cluster/pki.js';
import { killGroups } from '../runtime/process-groups.js';
import { freePort, spawnDaemon, waitFor } from '../runtime/process.js';
import { gatewayAddress, type PodNetwork } from './network.js';

export interface KubeProxyState {
  pid: number;
  log: string;
  /** The binary, for `--cleanup` at stop. */
  bin: string;
  healthzPort: number;
  /** KUBE-* chains per `iptables-save`/`ip6tables-save` table before the run: they are not ours to remove. */
  chainsBefore: string[];
  /** `nft list tables` lines before the run (iptables-nft registers a table on first use and never removes it). */
  tablesBefore: string[];
}

export interface KubeProxyConfigInput {
  kubeconfig: string;
  node: string;
  net: Pick<PodNetwork, 'subnet'>;
  healthzPort: number;
  metricsPort: number;
}

/**
 * KubeProxyConfiguration: health and metrics on loopback; NodePorts only on the bridge's address (never eth0);
 * every Service connection masqueraded, since pods have no route back to the host's other addresses and the bridge
 * does not hairpin a pod's own Service traffic without it; conntrack and route_localnet sysctls left as they are.
 */
export function kubeProxyConfig(i: KubeProxyConfigInput): Record<string, unknown> {
  return {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1', kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig: i.kubeconfig },
    hostnameOverride: i.node, mode: 'iptables', clusterCIDR: i.net.subnet,
    healthzBindAddress: `127.0.0.1:${i.healthzPort}`, metricsBindAddress: `127.0.0.1:${i.metricsPort}`,
    nodePortAddresses: [`${gatewayAddress(i.net)}/32`],
    iptables: { masqueradeAll: true, localhostNodePorts: false, minSyncPeriod: '0s', syncPeriod: '30s' },
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  };
}

/** `:KUBE-FOO - [0:0]` chain declarations, as `table/chain`, in iptables-save and ip6tables-save output. */
export function kubeChains(saveOutput: string): string[] {
  const out: string[] = [];
  let table = '';
  for (const line of saveOutput.split('\n')) {
    if (line.startsWith('*')) table = line.slice(1).trim();
    const m = /^:(KUBE-\S+)/.exec(line);
    if (m) out.push(`${table}/${m[1]}`);
  }
  return out;
}

const save = (cmd: 'iptables-save' | 'ip6tables-save') => spawnSync(cmd, { encoding: 'utf8' }).stdout ?? '';
const allChains = () => [...kubeChains(save('iptables-save')).map((c) => `4/${c}`), ...kubeChains(save('ip6tables-save')).map((c) => `6/${c}`)];

/** e.g. `table ip nat`; empty without the nft program (e2e/setup.sh installs it). */
const nftTables = (): string[] => (spawnSync('nft', ['list', 'tables'], { encoding: 'utf8' }).stdout ?? '').split('\n').filter((l) => l.startsWith('table '));

/** Tables iptables-nft registered during the run, once they hold no rule; one with a rule is someone else's. */
function removeNewEmptyTables(before: readonly string[]): void {
  for (const t of nftTables().filter((x) => !before.includes(x))) {
    const [, family, name] = t.split(' ') as [string, string, string];
    const json = spawnSync('nft', ['-j', 'list', 'table', family, name], { encoding: 'utf8' }).stdout ?? '';
    if (json && !json.includes('"rule"')) spawnSync('nft', ['delete', 'table', family, name], { stdio: 'ignore' });
  }
}

export async function startKubeProxy(o: {
  bin: string; dir: string; logDir: string; pkiDir: string; server: string; node: string; net: PodNetwork;
  onPid: (s: KubeProxyState) => void;
}): Promise<KubeProxyState> {
  const cert = issueClientCert(o.pkiDir, 'kube-proxy', '/CN=system:kube-proxy');
  const kc = join(o.dir, 'kube-proxy.kubeconfig');
  writeFileSync(kc, kubeconfig(o.server, join(o.pkiDir, 'ca.crt'), cert));
  const [healthzPort, metricsPort] = [await freePort(), await freePort()];
  const config = join(o.dir, 'kube-proxy.json');
  writeFileSync(config, JSON.stringify(kubeProxyConfig({ kubeconfig: kc, node: o.node, net: o.net, healthzPort, metricsPort }), null, 2));
  const chainsBefore = allChains();
  const tablesBefore = nftTables();
  const log = join(o.logDir, 'kube-proxy.log');
  const d = spawnDaemon('kube-proxy', join(o.bin, 'kube-proxy'), [`--config=${config}`, '--v=1'], log);
  const s: KubeProxyState = { pid: d.pid, log, bin: join(o.bin, 'kube-proxy'), healthzPort, chainsBefore, tablesBefore };
  o.onPid(s);
  // /healthz answers 200 once the first sync has written the rules.
  await waitFor('kube-proxy /healthz', async () => (await fetch(`http://127.0.0.1:${healthzPort}/healthz`)).ok, 60_000, () => d.child.exitCode === null);
  return s;
}

/**
 * `-D` lines (for `iptables-restore --noflush`) for every rule that jumps to one of `chains` from a chain not in it
 * (a built-in chain, or a chain that was there before the run), per table: e.g. `-A INPUT -j KUBE-FIREWALL`.
 */
export function jumpDeletions(saveOutput: string, chains: ReadonlySet<string>): string {
  const out: string[] = [];
  let table = '';
  const byTable = new Map<string, string[]>();
  for (const line of saveOutput.split('\n')) {
    if (line.startsWith('*')) table = line.slice(1).trim();
    const m = /^-A (\S+) .*-j (KUBE-\S+)/.exec(line);
    if (m && !chains.has(`${table}/${m[1]}`) && chains.has(`${table}/${m[2]}`)) byTable.set(table, [...byTable.get(table) ?? [], `-D ${line.slice(3)}`]);
  }
  for (const [t, lines] of byTable) out.push(`*${t}`, ...lines, 'COMMIT');
  return out.length ? `${out.join('\n')}\n` : '';
}

export async function stopKubeProxy(s: KubeProxyState): Promise<void> {
  await killGroups([s.pid]);
  spawnSync(s.bin, ['--cleanup', '--v=0'], { stdio: 'ignore', timeout: 30_000 });
  const before = new Set(s.chainsBefore);
  for (const [family, saveCmd, restoreCmd, tool] of [['4', 'iptables-save', 'iptables-restore', 'iptables'], ['6', 'ip6tables-save', 'ip6tables-restore', 'ip6tables']] as const) {
    const dump = save(saveCmd);
    const left = kubeChains(dump).filter((c) => !before.has(`${family}/${c}`));
    const jumps = jumpDeletions(dump, new Set(left));
    if (jumps) spawnSync(restoreCmd, ['--noflush'], { input: jumps, stdio: ['pipe', 'ignore', 'ignore'] });
    // Every chain flushed first (they may jump to each other), then deleted.
    for (const pass of ['-F', '-X']) {
      for (const c of left) {
        const [table, chain] = c.split('/') as [string, string];
        try { execFileSync(tool, ['-w', '-t', table, pass, chain], { stdio: 'ignore' }); } catch { /* gone */ }
      }
    }
  }
  removeNewEmptyTables(s.tablesBefore);
}
