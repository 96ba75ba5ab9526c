// What e2e tests use to talk to the shared cluster started by `e2e/cluster.sh run`: kubectl, as a user would.
import { spawnSync } from 'node:child_process';
import { readState, writeState, type StackState } from './cluster/state.js';

export interface Result { code: number; stdout: string; stderr: string }

/** The running stack, or a reason to skip: the e2e files also run without a cluster (npm run test:e2e alone). */
export function stack(): StackState | string {
  const file = process.env.KRUISE_TS_E2E_STATE;
  if (!file || !process.env.KUBECONFIG) return 'no cluster: run through `bash e2e/cluster.sh run -- npm run test:e2e`';
  return readState(file);
}

export function updateStack(s: StackState): void {
  const file = process.env.KRUISE_TS_E2E_STATE;
  if (file) writeState(file, s);
}

export function kubectl(args: string[], input?: string): Result {
  const r = spawnSync('kubectl', args, { encoding: 'utf8', input, timeout: 60_000, maxBuffer: 64 << 20 });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** kubectl that must succeed; the error carries its stderr. */
export function kubectlOk(args: string[], input?: string): string {
  const r = kubectl(args, input);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

export function getJson<T = Record<string, unknown>>(args: string[]): T {
  return JSON.parse(kubectlOk(['get', ...args, '-o', 'json'])) as T;
}

export async function eventually<T>(what: string, f: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try { const v = f(); if (v) return v; } catch (err) { last = err; }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${String(last)})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Resolves once a pod labelled `labels` in `namespace` would be created with `container` at `image`: a server-side dry
 * run through the injecting webhook. The webhook reads SidecarSets from its informer, so a pod created right after a
 * SidecarSet can be admitted before the cache has it and go without the sidecar (OpenKruise's webhook has the same
 * window); tests that create pods right after a SidecarSet wait here first.
 */
export function untilInjected(namespace: string, labels: Record<string, string>, container: string, image: string, timeoutMs = 30_000): Promise<true> {
  const probe = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'webhook-probe', namespace, labels },
    spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } });
  return eventually(`the webhook injects ${container}=${image} into pods labelled ${JSON.stringify(labels)}`, () => {
    const r = kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], probe);
    return r.code === 0 && (JSON.parse(r.stdout) as { spec?: { containers?: { name: string; image?: string }[] } }).spec?.containers?.some((c) => c.name === container && c.image === image) === true;
  }, timeoutMs);
}

/**
 * True when the running webhook serves `path` (a route still being written answers 404): the host-process webhook
 * by its port, else the Helm-installed one through its Service's ClusterIP (kube-proxy routes it from the host too).
 */
export async function serves(s: StackState, path: string): Promise<boolean> {
  let url: string;
  if (s.manager) url = `https://127.0.0.1:${s.manager.webhookPort}${path}`;
  else {
    const r = kubectl(['get', 'service', 'kruise-webhook-service', '-n', 'kruise-system', '-o', 'jsonpath={.spec.clusterIP}']);
    if (r.code !== 0 || !r.stdout.trim()) return false;
    url = `https://${r.stdout.trim()}${path}`;
  }
  const r = spawnSync('curl', ['-sk', '--max-time', '10', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', '-H', 'Content-Type: application/json',
    '-d', '{}', url], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() !== '404';
}

/** A SidecarSet condition as kruise-ts writes it. */
export interface SidecarSetCondition { type: string; status: string; reason: string; message: string }

/** kruise-ts's SidecarSet conditions, kept in an annotation (OpenKruise's SidecarSetStatus has no conditions). */
export const sidecarSetConditions = (s: { metadata: { annotations?: Record<string, string> } }): SidecarSetCondition[] =>
  JSON.parse(s.metadata.annotations?.['kruise-ts.io/sidecarset-conditions'] ?? '[]') as SidecarSetCondition[];
