// `npm run bench:crr`: how long from creating a ContainerRecreateRequest until its container has stopped, over 50
// sequential CRRs on one pod (real apiserver + kruise-ts webhook and controller, the daemon's CRR executor in this
// process, a real containerd; the script plays kubelet). Baseline from the same run: StopContainer called directly
// through CRI on the same kind of container. Prints figures, asserts nothing.
//
// Without KUBECONFIG it starts its own local cluster through e2e/cluster.sh (and tears it down); with KUBECONFIG it
// uses that cluster, which must run the kruise-ts webhook and controller. containerd is always its own.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubernetesObject } from '@kubernetes/client-node';
import { connectCri } from '../../daemon/cri/grpc-runtime.js';
import { startContainerRecreateExecutor, type ExecutorOutcome } from '../../daemon/containerrecreate/executor.js';
import { restExecutorPorts } from '../../daemon/containerrecreate/kube-adapters.js';
import { informerFactory } from '../../shared/kube/informer-factory.js';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { makeKube } from '../../shared/kube/client.js';
import { resources } from '../../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { destination, pino } from 'pino';
import { silentLogger } from '../../shared/log.js';
import { CriNodeStandin } from '../../e2e/harness/cri-node-standin.js';
import { KubeletCri, startRuntimeEnv } from '../../e2e/harness/runtime/index.js';

const RUNS = 50;
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
const log = (line: string) => { if (process.env.CRR_BENCH_LOG) process.stderr.write(`# ${line}\n`); };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, f: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

async function bench(): Promise<void> {
  const env = await startRuntimeEnv();
  const stop = new AbortController();
  const kube = makeKube({ kubeconfig: process.env.KUBECONFIG });
  const rest: KubeRest = makeRest(kube.kc);
  const cri = connectCri({ endpoint: env.containerd.socket, defaultTimeoutMs: 10_000 });
  const kubelet = new KubeletCri(env.containerd.socket, `${env.containerd.dir}/logs`);
  let standin: CriNodeStandin | undefined;
  let executorDone: Promise<void> = Promise.resolve();
  try {
    const image = await env.pushTestImage({ name: 'kruise-ts/crr-bench', tag: 'v1', cmd: APP });
    await cri.images.pullImage({ image });
    await rest.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } as KubernetesObject).catch(() => undefined);
    standin = new CriNodeStandin({ rest, kubelet, cri: cri.runtime, nodeName: NODE, image, pollMs: 50 });
    await standin.start();
    const kills = new Map<string, number>();
    const exec = startContainerRecreateExecutor({
      ...restExecutorPorts({ rest, informers: informerFactory({ rest, signal: stop.signal, log: silentLogger() }), nodeName: NODE, log: silentLogger() }),
      nodeName: NODE, runtimes: new Map([['containerd', cri.runtime]]), signal: stop.signal,
      // CRR_BENCH_LOG=<file> keeps the executor's trace log, to see where the time goes.
      log: process.env.CRR_BENCH_LOG ? pino({ level: 'trace' }, destination({ dest: process.env.CRR_BENCH_LOG, sync: false })) : silentLogger(),
      onOutcome: (o: ExecutorOutcome) => { if (o.kind === 'kill') kills.set(o.crr, Date.now() - o.durationMs); },
    });
    executorDone = exec.done;
    await exec.synced;

    // Baseline: StopContainer straight through CRI, on a pod the executor never sees.
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
    const toStopped: number[] = [];
    const toKill: number[] = [];
    const toCompleted: number[] = [];
    let failures = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const name = `crr-${i}`;
      const history = standin.history(NS, 'target', 'app');
      const oldId = history[history.length - 1]!;
      const t0 = Date.now();
      try {
        log(`create ${name} at ${t0}`);
        await rest.create<Crr>(resources.containerRecreateRequests, {
          apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: { namespace: NS, name },
          spec: { podName: 'target', containers: [{ name: 'app' }], strategy: {}, ttlSecondsAfterFinished: 5 },
        } as Crr);
        log(`created ${name} at ${Date.now()}`);
        const stoppedMs = await waitFor(`${name}: container stopped`, async () => {
          const st = await cri.runtime.containerStatus(oldId);
          return st.state === 'exited' && Number(st.finishedAtNs / 1_000_000n);
        }, RUN_TIMEOUT_MS);
        log(`stopped ${name} at ${stoppedMs}`);
        await waitFor(`${name}: Completed`, async () =>
          (await rest.find<Crr>(resources.containerRecreateRequests, { namespace: NS, name }))?.status?.phase === 'Completed', RUN_TIMEOUT_MS);
        if (i < WARMUP) continue;
        toStopped.push(stoppedMs - t0);
        toCompleted.push(Date.now() - t0);
        const killAt = kills.get(`${NS}/${name}`);
        if (killAt !== undefined) toKill.push(killAt - t0);
      } catch (err) {
        failures++;
        process.stderr.write(`run ${i}: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }

    const p50 = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);
    process.stdout.write([
      '',
      `CRR created → container stopped (n=${RUNS}, one pod, sequential, after ${WARMUP} warm-up runs):`,
      `  ${fmt(toStopped)}`,
      `  of which CRR created → daemon starts the kill: ${fmt(toKill)}`,
      `CRR created → CRR Completed (kubelet stand-in restarts within 50 ms, manager syncs readiness): ${fmt(toCompleted)}`,
      `baseline, StopContainer straight through CRI → stopped: ${fmt(direct)}`,
      `baseline, one API write (merge patch) round trip: ${fmt(apiWrite)}`,
      `p50 ratios: CRR→stopped / direct stop ${(p50(toStopped) / p50(direct)).toFixed(1)}x, CRR→stopped / one API write ${(p50(toStopped) / p50(apiWrite)).toFixed(1)}x`,
      `failures: ${failures}; target p50 ≤ 300 ms; load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} CPUs`,
      '',
    ].join('\n'));
  } finally {
    stop.abort();
    await executorDone;
    await standin?.stop({ removeNode: true }).catch(() => undefined);
    kubelet.close();
    cri.close();
    await env.stop();
    await rest.delete(resources.namespaces, { name: NS }).catch(() => undefined);
  }
}

if (process.env.KUBECONFIG) {
  await bench();
} else {
  // Self-contained: the e2e harness starts etcd, apiserver, KCM, scheduler, the webhook and the controller, runs this
  // script again with KUBECONFIG set, and tears everything down.
  const r = spawnSync('bash', [join(repoRoot, 'e2e/cluster.sh'), 'run', '--', process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
