// kruise-ts installed on the local cluster as a user installs it: `helm install` of charts/kruise-ts with the image
// `npm run image` builds (pushed as kruise-ts/manager:dev), and a values file that only says where this cluster
// differs from a real one: the manager pods are pinned to the real node (kwok's fake nodes run nothing), the daemon
// finds the node's private containerd, and the e2e feature gates. Everything else (2 replicas of each manager
// Deployment, pod network, the webhook's own certificates, the webhook configurations pointing at Service
// kruise-webhook-service) is the chart's default.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../runtime/process.js';
import { KRUISE_TS_DEV_REF } from '../images/kruise-ts.js';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './start.js';

export const RELEASE = 'kruise-ts';
export const CHART = 'charts/kruise-ts';

export interface LocalValuesInput {
  /** The real node's containerd directory (its socket is `containerd.sock` in it). */
  containerdDir: string;
  /** The daemon's health port on the node (host network): free, so concurrent harness users never clash. */
  daemonPort: number;
  featureGates: string;
  /** 0 leaves the manager Deployments empty (no real node: the harness runs them as host processes). */
  managerReplicas?: number;
}

/** The values file of the local cluster (pure). */
export function localValues(i: LocalValuesInput): Record<string, unknown> {
  const [repository, tag] = KRUISE_TS_DEV_REF.split(':') as [string, string];
  return {
    image: { repository, tag, pullPolicy: 'IfNotPresent' },
    featureGates: i.featureGates,
    manager: {
      ...(i.managerReplicas === undefined ? {} : { replicas: i.managerReplicas }),
      // One real node: the chart's preferred anti-affinity still places both replicas on it.
      nodeSelector: { [REAL_NODE_LABEL]: 'true' },
      tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
    },
    daemon: { socketLocation: i.containerdDir, port: i.daemonPort },
  };
}

export const helmRun = (helm: string, kubeconfig: string, args: string[]): string =>
  execFileSync(helm, ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, maxBuffer: 64 << 20 });

const kubectl = (kc: string, args: string[], input?: string) =>
  execFileSync('kubectl', ['--kubeconfig', kc, ...args], { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'], timeout: 120_000 });

/** A pod's server-side dry run: admitted only once the pod webhook (failurePolicy Fail) answers through its Service. */
export function podAdmitted(kubeconfig: string, namespace = 'default'): boolean {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'kruise-install-probe', namespace }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
  try { kubectl(kubeconfig, ['create', '--dry-run=server', '-f', '-'], JSON.stringify(pod)); return true; } catch { return false; }
}

/**
 * Every webhook of both configurations carries a caBundle. The webhook sets them when it sees a configuration change
 * (certs/config-watch.ts), so right after a `helm upgrade` that adds or re-renders webhooks some may have none for a
 * moment and their calls fail TLS verification; a pod being admitted proves only the pod webhook's.
 */
export function caBundlesSet(kubeconfig: string): boolean {
  try {
    return ['mutatingwebhookconfiguration/kruise-mutating-webhook-configuration', 'validatingwebhookconfiguration/kruise-validating-webhook-configuration'].every((c) => {
      const o = JSON.parse(kubectl(kubeconfig, ['get', c, '-o', 'json'])) as { webhooks?: { clientConfig?: { caBundle?: string } }[] };
      return (o.webhooks ?? []).every((w) => !!w.clientConfig?.caBundle);
    });
  } catch { return false; }
}

/** The release answers every webhook: a pod admitted through the Service and a caBundle on every webhook. */
export const releaseServing = (kubeconfig: string): boolean => podAdmitted(kubeconfig) && caBundlesSet(kubeconfig);

/**
 * Waits until the release serves: both manager Deployments and the daemon DaemonSet rolled out (Ready pods) and a
 * pod admitted through Service kruise-webhook-service.
 */
export async function waitForRelease(kubeconfig: string, opts: { managers?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const timeout = `${Math.round((opts.timeoutMs ?? 240_000) / 1000)}s`;
  if (opts.managers !== false) {
    for (const d of ['kruise-webhook', 'kruise-controller-manager']) kubectl(kubeconfig, ['rollout', 'status', '-n', 'kruise-system', `deployment/${d}`, `--timeout=${timeout}`]);
  }
  kubectl(kubeconfig, ['rollout', 'status', '-n', 'kruise-daemon', 'daemonset/kruise-daemon', `--timeout=${timeout}`]);
  if (opts.managers !== false) await waitFor('a pod admitted through Service kruise-webhook-service, every webhook with a caBundle', async () => releaseServing(kubeconfig), opts.timeoutMs ?? 120_000);
}

/** `helm install` with the local values; returns the values file (for `helm upgrade -f` by tests). */
export function helmInstall(o: { helm: string; kubeconfig: string; repoRoot: string; runDir: string; values: Record<string, unknown> }): string {
  const file = join(o.runDir, 'kruise-ts-values.json');
  writeFileSync(file, JSON.stringify(o.values, null, 2));
  helmRun(o.helm, o.kubeconfig, ['install', RELEASE, join(o.repoRoot, CHART), '-f', file]);
  return file;
}
