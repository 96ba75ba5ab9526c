// The node daemon (daemon/main.ts) as a host process for one node of the test cluster, talking to a real
// containerd. Reusable by any e2e or benchmark: start it for a Node name and a CRI socket, with the
// kruise-daemon ServiceAccount's own token (so its RBAC is what is tested), and wait until /healthz is ok.
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IDENTITIES, serviceAccountKubeconfig } from './cluster/identity.js';
import { freePort, spawnDaemon, waitFor, type Daemon } from './runtime/process.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface DaemonOptions {
  /** Admin kubeconfig of the cluster; used only to mint the ServiceAccount kubeconfig unless `asAdmin`. */
  kubeconfig: string;
  nodeName: string;
  /** The containerd socket (CRI_ENDPOINT). */
  criEndpoint: string;
  /** The log file goes here as `kruise-daemon-<node>.log`; restarts append to it. */
  logDir: string;
  namespace?: string;
  /** Extra environment, e.g. `{ MAX_WORKERS_FOR_PULL_IMAGE: '2', LOG_LEVEL: 'debug' }`. */
  env?: Record<string, string>;
  /** Run with the admin kubeconfig instead of the kruise-daemon ServiceAccount token. */
  asAdmin?: boolean;
  /** Run this esbuild bundle (`npm run build:daemon` → dist/daemon/main.mjs) instead of the sources through tsx. */
  bundle?: string;
  /** Extra node flags, e.g. `['--lite-mode']`. */
  nodeArgs?: string[];
  readyTimeoutMs?: number;
}

export interface NodeDaemon {
  daemon: Daemon;
  nodeName: string;
  healthPort: number;
  logFile: string;
  /** `/healthz` status and body. */
  healthz(): Promise<{ status: number; body: string }>;
  metrics(): Promise<string>;
  /** Everything the daemon has logged so far (all runs, since restarts append). */
  log(): string;
  exitCode(): number | null;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** A Node object no kubelet or kwok manages: enough for a NodeImage named after it. Idempotent. */
export function ensureNode(kubeconfig: string, name: string): void {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', type: 'kruise-ts-daemon' } } };
  execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], { input: JSON.stringify(node), encoding: 'utf8' });
}

export async function startDaemon(opts: DaemonOptions): Promise<NodeDaemon> {
  const healthPort = await freePort();
  const kubeconfig = opts.asAdmin ? opts.kubeconfig : serviceAccountKubeconfig(opts.kubeconfig, opts.logDir, IDENTITIES.daemon);
  const env = {
    ...process.env,
    KUBECONFIG: kubeconfig, NODE_NAME: opts.nodeName, POD_NAMESPACE: opts.namespace ?? IDENTITIES.daemon.namespace,
    CRI_ENDPOINT: opts.criEndpoint, BIND_ADDRESS: '127.0.0.1', HEALTH_PORT: String(healthPort),
    ...opts.env,
  };
  const logFile = join(opts.logDir, `kruise-daemon-${opts.nodeName}.log`);
  const args = [...(opts.nodeArgs ?? []), ...(opts.bundle ? [opts.bundle] : ['--import', 'tsx', join(REPO_ROOT, 'daemon/main.ts')])];
  const daemon = spawnDaemon(`kruise-daemon-${opts.nodeName}`, process.execPath, args, logFile, env);
  const url = (path: string) => `http://127.0.0.1:${healthPort}${path}`;
  const handle: NodeDaemon = {
    daemon, nodeName: opts.nodeName, healthPort, logFile,
    async healthz() {
      const res = await fetch(url('/healthz'));
      return { status: res.status, body: await res.text() };
    },
    metrics: async () => (await fetch(url('/metrics'))).text(),
    log: () => daemon.tail(Number.MAX_SAFE_INTEGER),
    exitCode: () => daemon.child.exitCode,
    stop: (graceMs) => daemon.stop(graceMs),
  };
  try {
    await waitFor(`kruise-daemon ${opts.nodeName} /healthz`, async () => (await handle.healthz()).status === 200,
      opts.readyTimeoutMs ?? 60_000, () => daemon.child.exitCode === null);
  } catch (err) {
    await daemon.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${daemon.tail(20)}`);
  }
  return handle;
}
