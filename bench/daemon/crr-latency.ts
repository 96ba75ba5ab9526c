// `npm run bench:crr`: how long from creating a ContainerRecreateRequest until its container has stopped, over 50
// sequential CRRs on one pod: real apiserver + the kruise-ts webhook and controller, the daemon as deployed (the
// manifest's node command line on the esbuild bundle, as a host process with its ServiceAccount), a real containerd;
// the script plays kubelet. Each run is split into phases from the daemon's own log and CRI:
//   API write (create answered) → daemon sees the CRR (watch event) → StopContainer called → container stopped.
// Baselines from the same run: StopContainer called directly through CRI on the same kind of container, and one
// API write round trip. Prints figures, asserts nothing.
//
// Without KUBECONFIG it starts its own local cluster through e2e/cluster.sh (no real node; torn down after); with
// KUBECONFIG it uses that cluster, which must run the kruise-ts webhook and controller. containerd is its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubernetesObject } from '@kubernetes/client-node';
import { connectCri } from '../../daemon/cri/grpc-runtime.js';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { makeKube } from '../../shared/kube/client.js';
import { resources } from '../../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { CriNodeStandin } from '../../e2e/harness/cri-node-standin.js';
import { startDaemon, type NodeDaemon } from '../../e2e/harness/daemon.js';
import { KubeletCri, startRuntimeEnv } from '../../e2e/harness/runtime/index.js';
import { buildDaemonBundle, deployedNodeFlags } from './deployed.js';

const RUNS = Number(process.env.BENCH_CRR_RUNS ?? 50);
const WARMUP = 3;
const NS = 'bench-crr';
const NODE = 'kts-crr-bench-node';
const APP = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
/** Per CRR; a run that does not finish in time is counted as a failure and the benchmark moves on. */
const RUN_TIMEOUT_MS = 60_000;

type Crr = ContainerRecreateRequest & KubernetesObject;

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${pct(s, 50).toFixed(1)} ms  p90 ${pct(s, 90).toFixed(1)} ms  p99 ${pct(s, 99).toFixed(1)} ms  min ${s[0]?.toFixed(1)} ms  max ${s[s.length - 1]?.toFixed(1)} ms  (n=${s.length})`;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

async function waitFor<T>(what: string, f: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** When the daemon first logged a watch event of each CRR, and when it called StopContainer for it (pino `time`). */
function daemonTimes(daemon: NodeDaemon): { seen: Map<string, number>; stopping: Map<string, number> } {
  const seen = new Map<string, number>();
  const stopping = new Map<string, number>();
  for (const line of daemon.log().split('\n')) {
    if (!line.startsWith('{')) continue;
    let rec: { msg?: string; crr?: string; time?: number };
    try { rec = JSON.parse(line) as typeof rec; } catch { continue; }
    if (!rec.crr || rec.time === undefined) continue;
    if (rec.msg === 'CRR event' && !seen.has(rec.crr)) seen.set(rec.crr, rec.time);
    if (rec.msg === 'stopping container' && !stopping.has(rec.crr)) stopping.set(rec.crr, rec.time);
  }
  return { seen, stopping };
}

async function bench(): Promise<void> {
  const env = await startRuntimeEnv();
  const dir = mkdtempSync('/tmp/kts-bench-crr-');
  const kube = makeKube({ kubeconfig: process.env.KUBECONFIG });
  const rest: KubeRest = makeRest(kube.kc);
  const cri = connectCri({ endpoint: env.containerd.socket, defaultTimeoutMs: 10_000 });
  const kubelet = new KubeletCri(env.containerd.socket, `${env.containerd.dir}/logs`);
  let standin: CriNodeStandin | undefined;
  let daemon: NodeDaemon | undefined;
  try {
    const image = await env.pushTestImage({ name: 'kruise-ts/crr-bench', tag: 'v1', cmd: APP });
    await cri.images.pullImage({ image });
    await rest.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } as KubernetesObject).catch(() => undefined);
    standin = new CriNodeStandin({ rest, kubelet, cri: cri.runtime, nodeName: NODE, image, pollMs: 50 });
    await standin.start();
    const nodeArgs = deployedNodeFlags();
    // Trace level: the daemon logs each CRR watch event ('CRR event') and each StopContainer ('stopping container').
    daemon = await startDaemon({ kubeconfig: process.env.KUBECONFIG!, nodeName: NODE, criEndpoint: env.containerd.socket, logDir: dir,
      bundle: await buildDaemonBundle(), nodeArgs, env: { LOG_LEVEL: 'trace' } });

    // Baseline: StopContainer straight through CRI, on a pod the daemon never acts on.
    const direct: number[] = [];
    const base = await standin.createPod({ namespace: NS, name: 'baseline', containers: [{ name: 'app', command: APP }], terminationGracePeriodSeconds: 10 });
    standin.forget(NS, 'baseline');
    const sandbox = (await cri.runtime.listContainers({ id: base.ids.app! }))[0]!.podSandboxId;
    let id = base.ids.app!;
    for (let i = 0; i < RUNS; i++) {
      // Let the shell install its TERM trap first; the CRR runs below get far more time than this anyway.
      await sleep(300);
      const t0 = Date.now();
      await cri.runtime.stopContainer(id, 10);
      direct.push(Number((await cri.runtime.containerStatus(id)).finishedAtNs / 1_000_000n) - t0);
      id = await kubelet.startContainer(sandbox, { namespace: NS, name: 'baseline', uid: base.uid }, { name: 'app', image, command: APP, attempt: i + 1 });
    }

    // Baseline: one API write (a merge patch) and its answer, the unit the CRR path is made of.
    const apiWrite: number[] = [];
    await rest.create(resources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: 'probe' } } as KubernetesObject);
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await rest.patch(resources.configMaps, { namespace: NS, name: 'probe' }, 'merge', { metadata: { annotations: { n: String(i) } } });
      apiWrite.push(performance.now() - t0);
    }

    await standin.createPod({ namespace: NS, name: 'target', containers: [{ name: 'app', command: APP }], terminationGracePeriodSeconds: 10 });
    const runs: Array<{ name: string; t0: number; created: number; stopped: number; completed: number }> = [];
    let failures = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const name = `crr-${i}`;
      const history = standin.history(NS, 'target', 'app');
      const oldId = history[history.length - 1]!;
      const t0 = Date.now();
      try {
        await rest.create<Crr>(resources.containerRecreateRequests, {
          apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: { namespace: NS, name },
          spec: { podName: 'target', containers: [{ name: 'app' }], strategy: {}, ttlSecondsAfterFinished: 5 },
        } as Crr);
        const created = Date.now();
        const stopped = await waitFor(`${name}: container stopped`, async () => {
          const st = await cri.runtime.containerStatus(oldId);
          return st.state === 'exited' && Number(st.finishedAtNs / 1_000_000n);
        }, RUN_TIMEOUT_MS);
        await waitFor(`${name}: Completed`, async () =>
          (await rest.find<Crr>(resources.containerRecreateRequests, { namespace: NS, name }))?.status?.phase === 'Completed', RUN_TIMEOUT_MS);
        if (i >= WARMUP) runs.push({ name, t0, created, stopped, completed: Date.now() });
      } catch (err) {
        failures++;
        process.stderr.write(`run ${i}: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }

    const { seen, stopping } = daemonTimes(daemon);
    const phase = (f: (r: (typeof runs)[number], seenAt: number, stopAt: number) => number) =>
      runs.flatMap((r) => {
        const s = seen.get(`${NS}/${r.name}`);
        const k = stopping.get(`${NS}/${r.name}`);
        return s === undefined || k === undefined ? [] : [f(r, s, k)];
      });
    const toStopped = runs.map((r) => r.stopped - r.t0);
    const p50 = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);
    process.stdout.write([
      '',
      `CRR created → container stopped, daemon as deployed (node ${[...nodeArgs, 'dist/daemon/main.mjs'].join(' ')}), n=${runs.length}, one pod, sequential, after ${WARMUP} warm-up runs:`,
      `  total:                                   ${fmt(toStopped)}`,
      `  1 API write (create → answered):         ${fmt(runs.map((r) => r.created - r.t0))}`,
      `  2 create sent → daemon sees the CRR:     ${fmt(phase((r, s) => s - r.t0))}`,
      `    (answered → seen; < 0: the watch event came first) ${fmt(phase((r, s) => s - r.created))}`,
      `  3 daemon sees → StopContainer called:    ${fmt(phase((_r, s, k) => k - s))}`,
      `  4 StopContainer called → stopped:        ${fmt(phase((r, _s, k) => r.stopped - k))}`,
      `CRR created → CRR Completed (kubelet stand-in restarts within 50 ms, manager syncs readiness): ${fmt(runs.map((r) => r.completed - r.t0))}`,
      `baseline, StopContainer straight through CRI → stopped: ${fmt(direct)}`,
      `baseline, one API write (merge patch) round trip: ${fmt(apiWrite)}`,
      `p50 ratios: CRR→stopped / direct stop ${(p50(toStopped) / p50(direct)).toFixed(1)}x, CRR→stopped / one API write ${(p50(toStopped) / p50(apiWrite)).toFixed(1)}x`,
      `failures: ${failures}; target p50 ≤ 300 ms; load average at the end: ${load()} on ${cpus().length} CPUs`,
      '',
    ].join('\n'));
  } finally {
    await daemon?.stop();
    await standin?.stop({ removeNode: true }).catch(() => undefined);
    kubelet.close();
    cri.close();
    await env.stop();
    await rest.delete(resources.namespaces, { name: NS }).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.KUBECONFIG) {
  await bench();
} else {
  // Self-contained: the e2e harness starts etcd, apiserver, KCM, scheduler, the webhook and the controller, runs this
  // script again with KUBECONFIG set, and tears everything down. No real node: the bench brings its own containerd.
  const r = spawnSync('bash', [join(repoRoot, 'e2e/cluster.sh'), 'run', '--', process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: { KRUISE_TS_REAL_NODE: '0', ...process.env } });
  process.exitCode = r.status ?? 1;
}
