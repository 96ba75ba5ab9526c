// cert-manager v1.11.5 as host processes against a test cluster: its controller (issues Certificates) and its
// cainjector (fills caBundle from cert-manager.io/inject-ca-from), built from the Go module by
// e2e/cluster/cert-manager/build-cert-manager.sh. No cert-manager webhook: nothing here needs its defaulting.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { freePort, spawnDaemon, waitFor, type Daemon } from './runtime/process.js';

export const CERT_MANAGER_VERSION = 'v1.11.5';

/** Where build-cert-manager.sh put the binaries: its last stdout line (progress goes to stderr). */
export function certManagerBinDir(repoRoot: string): string {
  const out = execFileSync('bash', [join(repoRoot, 'e2e/cluster/cert-manager/build-cert-manager.sh')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').pop() ?? '';
}

/**
 * The CRDs shipped in the module's deploy/crds, as one JSON list. Their metadata.labels are Helm template
 * text ('{{ template "cert-manager.name" . }}'), which the apiserver refuses as label values, so they go.
 */
export function certManagerCrds(repoRoot: string): string {
  const modCache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8', cwd: join(repoRoot, 'e2e/cluster/cert-manager') }).trim();
  const dir = join(modCache, `github.com/cert-manager/cert-manager@${CERT_MANAGER_VERSION}/deploy/crds`);
  const items = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().flatMap((f) =>
    (loadAll(readFileSync(join(dir, f), 'utf8')) as ({ metadata?: { labels?: unknown } } | null)[]).filter((d) => d !== null));
  for (const d of items) if (d.metadata) delete d.metadata.labels;
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

export interface CertManager { controller: Daemon; cainjector: Daemon; stop(): Promise<void> }

/** Starts both processes with the admin kubeconfig; metrics on a loopback port, no leader election. */
export async function startCertManager(opts: { bin: string; kubeconfig: string; logDir: string; clusterResourceNamespace: string }): Promise<CertManager> {
  const metrics = await freePort();
  const controller = spawnDaemon('cert-manager-controller', join(opts.bin, 'cert-manager-controller'), [
    `--kubeconfig=${opts.kubeconfig}`, '--leader-elect=false', `--cluster-resource-namespace=${opts.clusterResourceNamespace}`,
    `--metrics-listen-address=127.0.0.1:${metrics}`, '--v=2'], join(opts.logDir, 'cert-manager-controller.log'));
  // The cainjector's controller-runtime metrics server is off in v1.11 (bind address "0"); no other port.
  const cainjector = spawnDaemon('cert-manager-cainjector', join(opts.bin, 'cert-manager-cainjector'), [
    `--kubeconfig=${opts.kubeconfig}`, '--leader-elect=false', '--v=2'], join(opts.logDir, 'cert-manager-cainjector.log'));
  const stop = async () => { await Promise.all([controller.stop(), cainjector.stop()]); };
  try {
    await waitFor('cert-manager-controller metrics', async () => (await fetch(`http://127.0.0.1:${metrics}/metrics`)).ok, 60_000,
      () => controller.child.exitCode === null && cainjector.child.exitCode === null);
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- controller ---\n${controller.tail(20)}\n--- cainjector ---\n${cainjector.tail(20)}`);
  }
  return { controller, cainjector, stop };
}
