// The kruise-ts manager (the webhook's bundle, see manager-command.ts) as a host process against a control plane with
// no node to run its pods (KRUISE_TS_REAL_NODE=0, the benchmarks' clusters): the apiserver calls it at
// https://127.0.0.1:<port>, the URL it writes into the webhook configurations.
// It authenticates as ServiceAccount kruise-system/kruise-webhook (identity.ts), so its Roles are what is tested.
import { join } from 'node:path';
import { freePort, spawnDaemon, waitFor, type Daemon } from '../runtime/process.js';
import { e2eFeatureGates } from './feature-gates.js';
import { kubectl } from './cluster.js';
import { IDENTITIES, serviceAccountKubeconfig } from './identity.js';
import { managerArgs } from './manager-command.js';

export interface Manager { daemon: Daemon; webhookPort: number; healthPort: number; stop(): Promise<void> }

export interface ManagerOptions {
  repoRoot: string;
  /** Admin kubeconfig: mints the ServiceAccount's token and reads the webhook configurations. */
  kubeconfig: string;
  logDir: string;
  /** Run with the admin kubeconfig instead of kruise-webhook's token (a stack installed without manifests/ RBAC). */
  asAdmin?: boolean;
}

export async function startManager(opts: ManagerOptions): Promise<Manager> {
  const args = await managerArgs(opts.repoRoot, 'webhook');
  const [webhookPort, healthPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    KUBECONFIG: opts.asAdmin ? opts.kubeconfig : serviceAccountKubeconfig(opts.kubeconfig, opts.logDir, IDENTITIES.webhook),
    POD_NAMESPACE: IDENTITIES.webhook.namespace,
    WEBHOOK_HOST: '127.0.0.1', WEBHOOK_PORT: String(webhookPort), WEBHOOK_CERT_WRITER: 'secret',
    BIND_ADDRESS: '127.0.0.1', HEALTH_PORT: String(healthPort), FEATURE_GATES: e2eFeatureGates,
    // Called by URL, not through a Service: there is nothing to drain on SIGTERM, and stop() would wait for it.
    WEBHOOK_DRAIN_SECONDS: '0',
  };
  const daemon = spawnDaemon('kruise-manager', process.execPath, args,
    join(opts.logDir, 'kruise-manager.log'), env);
  const alive = () => daemon.child.exitCode === null;
  try {
    await waitFor('kruise-manager /readyz', async () => (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).ok, 60_000, alive);
    // Ready to serve is not enough: the apiserver must also trust it and call the right URL.
    await waitFor('webhook caBundle', async () => {
      const conf = JSON.parse(kubectl(opts.kubeconfig, ['get', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration', '-o', 'json'])) as
        { webhooks: { clientConfig: { caBundle?: string; url?: string } }[] };
      return conf.webhooks.every((w) => w.clientConfig.caBundle && w.clientConfig.url?.includes(`:${webhookPort}/`));
    }, 30_000, alive);
  } catch (err) {
    await daemon.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${daemon.tail(20)}`);
  }
  return { daemon, webhookPort, healthPort, stop: () => daemon.stop() };
}
