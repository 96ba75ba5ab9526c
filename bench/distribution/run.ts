// `npm run bench:distribution`: the ImagePullJob and ResourceDistribution benchmarks of issue 6 on one local cluster
// (etcd, kube-apiserver, KCM, scheduler, kwok, the kruise-ts webhook), with the NodeImage, ImagePullJob and
// ResourceDistribution controllers running in this process as the manager runs them (their API requests counted).
// Every phase prints its time, load average, CPU seconds per process, the apiserver's request counts and webhook
// latency; the summary gives each target figure as a ratio to the baseline measured in the same run.
//   npm run bench:distribution [-- resourcedistribution | imagepulljob]   one half only
//   BENCH_NODES=1000 BENCH_NAMESPACES=1000
// The cluster differs from the test cluster in what runs in the background only: the bench's kwok sends no node
// heartbeats or leases and the KCM's ttl and node-lifecycle controllers are off (bench-kwok.ts says why).
// Prints figures, asserts nothing, stops by itself.
import { setMaxListeners } from 'node:events';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { destination, pino } from 'pino';
import { Registry } from 'prom-client';
import { imagePullJobController } from '../../controller/imagepulljob/controller.js';
import { nodeImageController } from '../../controller/nodeimage/controller.js';
import { resourceDistributionController } from '../../controller/resourcedistribution/controller.js';
import { runControllers } from '../../controller/run-controllers.js';
import type { ControllerDeps } from '../../controller/types.js';
import { binDir, kubectl, startCluster, type Cluster } from '../../e2e/harness/cluster/cluster.js';
import { startManager, type Manager } from '../../e2e/harness/cluster/manager.js';
import type { Daemon } from '../../e2e/harness/runtime/process.js';
import { realClock } from '../../shared/clock.js';
import { loadConfig } from '../../shared/config.js';
import { makeKube } from '../../shared/kube/client.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import { informerFactory } from '../../shared/kube/informer-factory.js';
import { makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { resources } from '../../shared/kube/resources.js';
import { startBenchKwok } from './bench-kwok.js';
import { say, type BenchContext } from './context.js';
import { imagePullJobBench, type IpjFigures } from './imagepulljob.js';
import { Meter } from './meter.js';
import { resourceDistributionBench, type RdFigures } from './resourcedistribution.js';

/** The whole run is abandoned after this, whatever state it is in. */
const HARD_LIMIT_MS = 20 * 60_000;
const TARGET_S = 10;
const repoRoot = resolve(import.meta.dirname, '../..');
const only = process.argv[2];
if (only && only !== 'resourcedistribution' && only !== 'imagepulljob') {
  process.stderr.write(`usage: run.ts [resourcedistribution | imagepulljob] (got ${only})\n`);
  process.exit(2);
}

async function runBenches(cluster: Cluster, manager: Manager, kwok: Daemon, dir: string): Promise<{ rd?: RdFigures; ipj?: IpjFigures }> {
  const stop = new AbortController();
  // Every shared cache and worker listens on it, as in controller/main.ts.
  setMaxListeners(256, stop.signal);
  const kube = makeKube({ kubeconfig: cluster.kubeconfig });
  const processes = () => [...cluster.daemons, manager.daemon, kwok].map((d) => ({ name: d.name === 'kruise-manager' ? 'kruise-ts webhook' : d.name, pid: d.pid }));
  const registry = new Registry();
  const meter = new Meter(kube.kc, processes, registry, `http://127.0.0.1:${manager.healthPort}/metrics`);
  let lastRequest = performance.now();
  const rest = makeRest(kube.kc, { onRequest: (m, p) => { lastRequest = performance.now(); meter.onRequest(m, p); } });
  const client = makeRest(kube.kc);
  const log = pino({ level: 'warn' }, destination({ dest: join(cluster.logDir, 'bench-controllers.log'), sync: false }));
  const config = loadConfig({ FEATURE_GATES: 'ResourceDistributionGate=true', NODEIMAGE_CREATION_DELAY_SECONDS: '0', LEADER_ELECT: 'false' });
  const informers = informerFactory({ rest, signal: stop.signal, log });
  const deps: ControllerDeps = { rest, informers, log, metrics: registry, clock: realClock, namespace: config.namespace, config,
    events: (component) => eventRecorder({ rest, component, log }) };
  const ctx: BenchContext = {
    kubeconfig: cluster.kubeconfig, kc: kube.kc, client, informers, meter,
    controllersQuiet: async (ms = 3000) => { while (performance.now() - lastRequest < ms) await new Promise((r) => setTimeout(r, 100)); },
  };
  // Caches the benches read, asked for before the controllers start so they are synced with the rest.
  for (const r of [resources.configMaps, resources.nodes, resources.nodeImages, resources.imagePullJobs]) informers.cache(r);
  const running = runControllers([nodeImageController, imagePullJobController, resourceDistributionController], deps, stop.signal);
  try {
    await informers.synced();
    if (only !== 'imagepulljob') await meter.phase('KCM garbage collector knows ResourceDistributions', () => gcKnowsResourceDistributions(client));
    await ctx.controllersQuiet();
    await meter.phase('idle cluster, 10 s (background load before the benches)', () => new Promise((r) => setTimeout(r, 10_000)));
    const rd = only === 'imagepulljob' ? undefined : await resourceDistributionBench(ctx);
    const ipj = only === 'resourcedistribution' ? undefined : await imagePullJobBench(ctx);
    await meter.phase('idle cluster, 10 s (background load after the benches)', () => new Promise((r) => setTimeout(r, 10_000)));
    say(`logs: ${dir}`);
    return { rd, ipj };
  } finally {
    stop.abort();
    await Promise.race([running, new Promise((r) => setTimeout(r, 10_000))]);
  }
}

/**
 * The KCM's garbage collector learns new CRDs on a 30 s discovery resync. Copies made before that send it into
 * retries (and, once it knows the kind, 2 GETs per copy at its 20 requests/s limit), as a long-running cluster never
 * would. A probe: a ConfigMap owned by a deleted RD, collected only once the collector knows the kind. Each attempt
 * is a fresh pair, since a dependent seen too early waits out the collector's backoff.
 */
async function gcKnowsResourceDistributions(client: KubeRest): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const name = `bench-gc-probe-${attempt}`;
    const rd = await client.create<KubernetesObject>(resources.resourceDistributions, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }, targets: {} } } as KubernetesObject);
    await client.create(resources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default',
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name, uid: rd.metadata!.uid! }] } });
    await client.delete(resources.resourceDistributions, { name }, { propagationPolicy: 'Background' });
    const t0 = performance.now();
    while (performance.now() - t0 < 5000) {
      if (!(await client.find(resources.configMaps, { namespace: 'default', name }))) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error('the garbage collector did not learn the ResourceDistribution kind within 150 s');
}

function summary(figures: { rd?: RdFigures; ipj?: IpjFigures }): void {
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const line = (what: string, s: number, base: number, baseWhat: string, target = true) => {
    const verdict = !target ? '' : s <= TARGET_S ? '(≤ 10 s target met)' : '(target ≤ 10 s missed)';
    say(`  ${what.padEnd(40)} ${s.toFixed(2).padStart(6)} s ${verdict.padEnd(22)} ${(s / base).toFixed(2)}× ${baseWhat} (${base.toFixed(2)} s)`);
  };
  say(`\nsummary (load average at the end: ${load})`);
  if (figures.rd) {
    line('RD: all copies exist', figures.rd.create, figures.rd.baselineCreate, 'bench creating the same ConfigMaps');
    line('RD: source edit reached every copy', figures.rd.edit, figures.rd.baselineUpdate, 'bench updating the same ConfigMaps');
  }
  if (figures.ipj) {
    line('IPJ: tag in every NodeImage', figures.ipj.tag, figures.ipj.baseline, 'bench PUTting a tag into the same NodeImages');
    line('', figures.ipj.tag, figures.ipj.baselinePatch, 'bench merge-patching a tag into them', false);
    line('IPJ: pulls reported → job completed', figures.ipj.complete, figures.ipj.report, 'the reports themselves', false);
  }
}

async function main(): Promise<void> {
  const hard = setTimeout(() => { process.stderr.write('bench: hard time limit reached\n'); process.exit(3); }, HARD_LIMIT_MS);
  hard.unref();
  const dir = join(repoRoot, 'e2e/.run', `bench-distribution-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  let cluster: Cluster | undefined;
  let manager: Manager | undefined;
  let kwok: Daemon | undefined;
  try {
    say(`starting a local control plane and the kruise-ts webhook (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    const bin = binDir(repoRoot);
    cluster = await startCluster({ dir, bin, kcmDisable: ['ttl', 'nodelifecycle'] });
    kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests')]);
    kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    // No daemon pods: 1,000 of them would only load the scheduler and kwok, and nothing here needs them.
    kubectl(cluster.kubeconfig, ['delete', 'daemonset', '-n', 'kruise-daemon', '--all']);
    manager = await startManager({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir });
    kwok = startBenchKwok(cluster, bin, dir);
    const figures = await runBenches(cluster, manager, kwok, dir);
    summary(figures);
  } finally {
    await kwok?.stop();
    await manager?.stop();
    await cluster?.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
