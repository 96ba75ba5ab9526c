// What e2e tests do to the Helm-installed kruise-ts to drive failures, as an operator would: delete a manager pod,
// scale a Deployment, read a pod's log, `helm upgrade` with another value. Only with a real node, where the manager
// runs as pods (`inPods`); without one (KRUISE_TS_REAL_NODE=0) the tests that need this skip.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { StackState } from './cluster/state.js';
import { eventually, getJson, kubectl, kubectlOk } from './kube.js';

export const MANAGER_NS = 'kruise-system';
export type Component = 'webhook' | 'controller-manager';
export const DEPLOYMENT: Record<Component, string> = { webhook: 'kruise-webhook', 'controller-manager': 'kruise-controller-manager' };

interface PodItem { metadata: { name: string; uid: string; deletionTimestamp?: string }; status: { phase?: string; containerStatuses?: { ready: boolean; restartCount: number }[] } }

/** Why a pod-driven test cannot run on this stack, or false when the manager runs as Helm-installed pods. */
export function needsPods(s: StackState | string): string | false {
  if (typeof s === 'string') return s;
  return s.release && s.realNode && !s.manager ? false : 'the manager runs as host processes (no real node: KRUISE_TS_REAL_NODE=0)';
}

/** The component's pods that are not being deleted. */
export function pods(c: Component): PodItem[] {
  return getJson<{ items: PodItem[] }>(['pods', '-n', MANAGER_NS, '-l', `control-plane=${c}`]).items.filter((p) => !p.metadata.deletionTimestamp);
}

const ready = (p: PodItem) => p.status.phase === 'Running' && (p.status.containerStatuses ?? []).every((c) => c.ready);

/** The holder of Lease kruise-system/kruise-manager: `<pod name>_<uuid>`. */
export const leaseHolder = (): string =>
  getJson<{ spec: { holderIdentity?: string } }>(['lease', '-n', MANAGER_NS, 'kruise-manager']).spec.holderIdentity ?? '';

/** The controller pod that holds the Lease, once one does. */
export function leaderPod(timeoutMs = 60_000): Promise<string> {
  return eventually('a controller pod holds the lease', () => {
    const holder = leaseHolder();
    return pods('controller-manager').map((p) => p.metadata.name).find((n) => holder.startsWith(`${n}_`));
  }, timeoutMs);
}

/**
 * Once the Lease has moved off `previous` (a deleted pod): the new leader's pod name. Either the standby replica or
 * the pod the ReplicaSet made to replace the deleted one may win, as in any cluster: whichever campaigns first.
 */
export function newLeaderPod(previous: string, timeoutMs = 120_000): Promise<string> {
  return eventually(`a controller pod other than ${previous} holds the lease`, () => {
    const holder = leaseHolder();
    return pods('controller-manager').map((p) => p.metadata.name).find((n) => n !== previous && holder.startsWith(`${n}_`));
  }, timeoutMs);
}

/**
 * SIGKILLs the controller process of pod `name` on the real node (this host), as the OOM killer would: no Lease
 * release, no clean stop. Found by its downward-API POD_NAME in /proc/<pid>/environ. Returns how many were killed.
 */
export function killControllerProcess(name: string): number {
  let killed = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/controller/main.mjs')) continue;
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`POD_NAME=${name}`)) continue;
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch { /* exited meanwhile */ }
  }
  return killed;
}

/** Once the Lease has a holder other than `previous` (an identity): that holder's pod name (maybe the same pod, restarted). */
export function newHolderPod(previous: string, timeoutMs = 120_000): Promise<string> {
  return eventually(`a controller other than ${previous} holds the lease`, () => {
    const holder = leaseHolder();
    return holder !== previous && pods('controller-manager').map((p) => p.metadata.name).find((n) => holder.startsWith(`${n}_`));
  }, timeoutMs);
}

/** Scales the component's Deployment; at 0, resolves once no pod of it is left (terminated, not just terminating). */
export async function scale(c: Component, replicas: number, timeoutMs = 180_000): Promise<void> {
  kubectlOk(['scale', '-n', MANAGER_NS, `deployment/${DEPLOYMENT[c]}`, `--replicas=${replicas}`]);
  if (replicas === 0) {
    await eventually(`no ${c} pod left`, () => kubectl(['get', 'pods', '-n', MANAGER_NS, '-l', `control-plane=${c}`, '-o', 'name']).stdout.trim() === '', timeoutMs);
  } else {
    await rolledOut(c, replicas, timeoutMs);
  }
}

/** The Deployment at `replicas` Ready pods and nothing else of it left. */
export function rolledOut(c: Component, replicas = 2, timeoutMs = 180_000): Promise<PodItem[]> {
  return eventually(`${replicas} ${c} pods Ready`, () => {
    const all = getJson<{ items: PodItem[] }>(['pods', '-n', MANAGER_NS, '-l', `control-plane=${c}`]).items;
    return all.length === replicas && all.every((p) => !p.metadata.deletionTimestamp && ready(p)) && all;
  }, timeoutMs);
}

/** The pod's log (current container), through the apiserver and the kubelet. */
export const podLog = (name: string): string => kubectl(['logs', '-n', MANAGER_NS, name, '--tail=-1']).stdout;

/** `helm upgrade` of the harness's release with its values file plus `args` (e.g. `--set featureGates=...`). */
export function helmUpgrade(s: StackState, args: string[]): string {
  if (!s.helm || !s.release) throw new Error('no Helm release in this stack');
  const r = spawnSync(s.helm, ['upgrade', s.release.name, 'charts/kruise-ts', '-f', s.release.valuesFile, ...args],
    { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname, timeout: 300_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`helm upgrade failed: ${r.stderr}`);
  return r.stdout;
}
