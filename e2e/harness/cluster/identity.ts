// Host processes of the test stack authenticate as the ServiceAccount their Deployment runs as, with a token minted
// by the apiserver, so the RBAC in manifests/ is what every e2e run exercises: a call the Roles do not grant fails
// the suite as it would fail in a cluster.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The ServiceAccounts of manifests/base, by the process that runs as each. */
export const IDENTITIES = {
  webhook: { namespace: 'kruise-system', serviceAccount: 'kruise-webhook' },
  controller: { namespace: 'kruise-system', serviceAccount: 'kruise-manager' },
  daemon: { namespace: 'kruise-daemon', serviceAccount: 'kruise-daemon' },
} as const;

export type Identity = (typeof IDENTITIES)[keyof typeof IDENTITIES];

const kubectlJson = (kc: string, args: string[]) => JSON.parse(execFileSync('kubectl', ['--kubeconfig', kc, ...args, '-o', 'json'], { encoding: 'utf8' }));

/**
 * A kubeconfig that authenticates as `who` with a fresh token, written into `dir` (mode 0600). The token lasts 24 h:
 * the stack's webhook and controllers keep theirs for the whole run and never reload it.
 */
export function serviceAccountKubeconfig(adminKubeconfig: string, dir: string, who: Identity): string {
  const token = execFileSync('kubectl', ['--kubeconfig', adminKubeconfig, 'create', 'token', who.serviceAccount, '-n', who.namespace, '--duration=24h'], { encoding: 'utf8' }).trim();
  const view = kubectlJson(adminKubeconfig, ['config', 'view', '--raw', '--minify']);
  const cluster = view.clusters[0].cluster;
  const file = join(dir, `${who.namespace}.${who.serviceAccount}.kubeconfig`);
  writeFileSync(file, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'sa',
    clusters: [{ name: 'c', cluster }],
    users: [{ name: who.serviceAccount, user: { token } }],
    contexts: [{ name: 'sa', context: { cluster: 'c', user: who.serviceAccount } }],
  }), { mode: 0o600 });
  return file;
}
