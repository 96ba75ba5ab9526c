// The kruise-ts controllers (the controller's bundle, see manager-command.ts) as a host process against a control
// plane with no node to run their pods (KRUISE_TS_REAL_NODE=0, the benchmarks' clusters), with leader election on,
// as one replica of the Deployment would run them, authenticated as ServiceAccount kruise-system/kruise-manager
// (identity.ts) so its Roles are what is tested.
import { join } from 'node:path';
import { freePort, spawnDaemon, waitFor, type Daemon } from '../runtime/process.js';
import { e2eFeatureGates } from './feature-gates.js';
import { IDENTITIES, serviceAccountKubeconfig } from './identity.js';
import { managerArgs } from './manager-command.js';

export interface ControllerProcess { daemon: Daemon; healthPort: number; stop(): Promise<void> }

export interface ControllerOptions {
  repoRoot: string;
  /** Admin kubeconfig: mints the ServiceAccount's token. */
  kubeconfig: string;
  logDir: string;
  name?: string;
  env?: Record<string, string>;
  /** Run with the admin kubeconfig instead of kruise-manager's token (a stack installed without manifests/ RBAC). */
  asAdmin?: boolean;
}

export async function startController(opts: ControllerOptions): Promise<ControllerProcess> {
  const args = await managerArgs(opts.repoRoot, 'controller');
  const healthPort = await freePort();
  const name = opts.name ?? 'kruise-controller';
  const env = {
    ...process.env,
    KUBECONFIG: opts.asAdmin ? opts.kubeconfig : serviceAccountKubeconfig(opts.kubeconfig, opts.logDir, IDENTITIES.controller),
    POD_NAMESPACE: IDENTITIES.controller.namespace, POD_NAME: name,
    BIND_ADDRESS: '127.0.0.1', HEALTH_PORT: String(healthPort), FEATURE_GATES: e2eFeatureGates,
    ...opts.env,
  };
  const daemon = spawnDaemon(name, process.execPath, args,
    join(opts.logDir, `${name}.log`), env);
  try {
    await waitFor(`${name} /healthz`, async () => (await fetch(`http://127.0.0.1:${healthPort}/healthz`)).ok, 60_000, () => daemon.child.exitCode === null);
  } catch (err) {
    await daemon.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${daemon.tail(20)}`);
  }
  return { daemon, healthPort, stop: () => daemon.stop() };
}
