// `npm run bench:imagepulljob`: one ImagePullJob over 1,000 kwok nodes on a real local control plane. Runs the
// NodeImage and ImagePullJob controllers in this process (so every API request they make is counted through
// makeRest's onRequest hook) and prints: time for the 1,000 NodeImages to appear, a baseline of 1,000 plain
// NodeImage patches from here, time until every NodeImage carries the job's tag, and time to completion once the
// bench (playing the daemon) reports every pull Succeeded. Prints figures, asserts nothing, stops by itself.
//   BENCH_NODES=1000   node count
//   KUBECONFIG=...     use that cluster (kruise-ts CRDs + webhook installed, no kruise-ts controller running)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setMaxListeners } from 'node:events';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { imagePullJobController } from '../../controller/imagepulljob/controller.js';
import { forEachLimit } from '../../controller/imagepulljob/writes.js';
import { nodeImageController } from '../../controller/nodeimage/controller.js';
import { runControllers } from '../../controller/run-controllers.js';
import type { ControllerDeps } from '../../controller/types.js';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { realClock } from '../../shared/clock.js';
import { loadConfig } from '../../shared/config.js';
import { makeKube } from '../../shared/kube/client.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import { informerFactory } from '../../shared/kube/informer-factory.js';
import { resources } from '../../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { silentLogger } from '../../shared/log.js';
import { binDir, kubectl, startCluster, type Cluster } from '../../e2e/harness/cluster/cluster.js';
import { startManager, type Manager } from '../../e2e/harness/cluster/manager.js';
import { spawnDaemon, type Daemon } from '../../e2e/harness/runtime/process.js';

const NODES = Number(process.env.BENCH_NODES ?? 1000);
const IMAGE = { ref: 'bench/imagepulljob:1', name: 'bench/imagepulljob', tag: '1' };
const NS = 'bench-imagepulljob';
const LABEL = 'kruise-ts.io/bench-imagepulljob';
/** The whole run is abandoned after this, whatever state it is in. */
const HARD_LIMIT_MS = 15 * 60_000;
const repoRoot = resolve(import.meta.dirname, '../..');
const say = (s: string) => process.stdout.write(`${s}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

class Counter {
  byVerb = new Map<string, number>();
  total = 0;
  add(method: string) { this.total++; this.byVerb.set(method, (this.byVerb.get(method) ?? 0) + 1); }
  reset() { this.total = 0; this.byVerb.clear(); }
  toString() { return `${this.total} (${[...this.byVerb].sort().map(([m, n]) => `${m} ${n}`).join(', ')})`; }
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await check()) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const nodeName = (i: number) => `bench-ipj-${String(i).padStart(4, '0')}`;
const kwokNode = (name: string, kwokValue: string) => ({
  apiVersion: 'v1', kind: 'Node',
  metadata: { name, annotations: { 'kwok.x-k8s.io/node': kwokValue, 'node.alpha.kubernetes.io/ttl': '0' }, labels: { 'kubernetes.io/hostname': name, [LABEL]: 'yes' } },
  status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' }, capacity: { cpu: '8', memory: '32Gi', pods: '110' } },
});

async function run(kubeconfig: string, kwokValue: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const plain: KubeRest = makeRest(kc);
  const counter = new Counter();
  const counted = makeRest(kc, { onRequest: (m) => counter.add(m) });
  const names = Array.from({ length: NODES }, (_, i) => nodeName(i + 1));

  say(`creating ${NODES} kwok nodes`);
  let t = performance.now();
  await forEachLimit(names, 32, (n) => plain.create(resources.nodes, kwokNode(n, kwokValue)).catch((err: { code?: number }) => { if (err.code !== 409) throw err; }));
  const readyMs = await until('kwok marks the nodes Ready', async () => {
    const list = await plain.list<{ metadata?: { name?: string }; status?: { conditions?: { type: string; status: string }[] } }>(resources.nodes, { labelSelector: `${LABEL}=yes` });
    return list.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length >= NODES;
  }, 300_000, 1000);
  say(`  nodes created and Ready in ${secs(performance.now() - t)} (Ready wait ${secs(readyMs)})`);

  const stop = new AbortController();
  setMaxListeners(256, stop.signal);
  const config = loadConfig({ NODEIMAGE_CREATION_DELAY_SECONDS: '0', LEADER_ELECT: 'false', LOG_LEVEL: 'silent' });
  const log = silentLogger();
  const kube = makeKube({ ...config, kubeconfig });
  const informers = informerFactory({ rest: counted, signal: stop.signal, log });
  const deps: ControllerDeps = { kube, rest: counted, informers, log, metrics: new Registry(), clock: realClock, namespace: config.namespace, config,
    events: (component) => eventRecorder({ rest: counted, component, log }) };
  // The controllers' own NodeImage cache, read by the bench too: observing through it costs no API requests.
  const nodeImages = informers.cache<NodeImage>(resources.nodeImages);
  const benchNodes = new Set(names);
  const ours = () => nodeImages.list().filter((ni) => benchNodes.has(ni.metadata?.name ?? ''));

  counter.reset();
  t = performance.now();
  const running = runControllers([nodeImageController, imagePullJobController], deps, stop.signal);
  try {
    const createMs = await until('NodeImages created', () => ours().length >= NODES, 300_000);
    say(`NodeImages: ${NODES} created in ${secs(createMs)} after the controllers started; API requests ${counter}`);

    // Baseline: the same number of NodeImage writes done directly (through the same webhooks), same concurrency.
    t = performance.now();
    await forEachLimit(names, 16, (n) => plain.patch(resources.nodeImages, { name: n }, 'merge', { metadata: { annotations: { 'bench/touched': 'yes' } } }));
    const baselineMs = performance.now() - t;
    say(`baseline: ${NODES} NodeImage merge patches from the bench, 16 in flight: ${secs(baselineMs)}`);
    await new Promise((r) => setTimeout(r, 2000));

    kubectl(kubeconfig, ['create', 'namespace', NS]);
    counter.reset();
    t = performance.now();
    await plain.create(resources.imagePullJobs, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'bench', namespace: NS },
      spec: { image: IMAGE.ref, parallelism: NODES, selector: { matchLabels: { [LABEL]: 'yes' } }, completionPolicy: { type: 'Always' } } });
    const tagged = () => ours().filter((ni) => ni.spec?.images?.[IMAGE.name]?.tags?.some((x) => x.tag === IMAGE.tag)).length;
    const tagMs = await until('every NodeImage carries the tag', () => tagged() >= NODES, 300_000);
    say(`ImagePullJob: tag in all ${NODES} NodeImages ${secs(tagMs)} after create (target ≤ 10 s); controller API requests ${counter}`);
    say(`  ratio to the baseline of plain patches: ${(tagMs / baselineMs).toFixed(2)} (below 1: the controller writes faster than the bench's own 16-wide patch loop)`);

    // Play the daemon on every node, then time until the job reports completion.
    await new Promise((r) => setTimeout(r, 2000));
    counter.reset();
    t = performance.now();
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await forEachLimit(names, 16, (n) => plain.patch(resources.nodeImages, { name: n, subresource: 'status' }, 'merge', { status: {
      desired: 1, succeeded: 1, failed: 0, pulling: 0, waiting: 0,
      imageStatuses: { [IMAGE.name]: { tags: [{ tag: IMAGE.tag, phase: 'Succeeded', version: 0, progress: 100, startTime: now, completionTime: now }] } } } }));
    const reportedMs = performance.now() - t;
    const doneMs = await until('job completed', async () =>
      !!(await plain.get<ImagePullJob>(resources.imagePullJobs, { namespace: NS, name: 'bench' })).status?.completionTime, 300_000, 200);
    say(`completion: ${NODES} pulls reported Succeeded in ${secs(reportedMs)}; job completed ${secs(doneMs)} after the last report; controller API requests ${counter}`);
  } finally {
    stop.abort();
    await Promise.race([running, new Promise((r) => setTimeout(r, 10_000))]);
  }
}

/**
 * A second kwok for the bench's nodes only, without client-side QPS limits: the harness's kwok, throttled, takes
 * minutes to mark 1,000 nodes Ready on a loaded machine. Logs warnings only (its INFO log is a line per patch).
 */
function startBenchKwok(cluster: Cluster, dir: string): Daemon {
  const config = join(dir, 'kwok-bench.yaml');
  writeFileSync(config, 'apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokConfiguration\noptions:\n  disableQPSLimits: true\n');
  return spawnDaemon('kwok-bench', join(binDir(repoRoot), 'kwok'), [`--kubeconfig=${cluster.kubeconfig}`, `--config=${config}`, '--manage-all-nodes=false',
    '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=bench', '--cidr=10.1.0.0/16', '--node-ip=10.1.0.1', '--node-lease-duration-seconds=40', '-v=WARN'],
  join(cluster.logDir, 'kwok-bench.log'));
}

async function main(): Promise<void> {
  const hard = setTimeout(() => { process.stderr.write('bench: hard time limit reached\n'); process.exit(3); }, HARD_LIMIT_MS);
  hard.unref();
  if (process.env.KUBECONFIG) {
    // Nodes annotated as the harness's kwok expects (kwok.x-k8s.io/node=fake).
    await run(process.env.KUBECONFIG, 'fake');
    return;
  }
  const dir = join(repoRoot, 'e2e/.run', `bench-imagepulljob-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  let cluster: Cluster | undefined;
  let manager: Manager | undefined;
  let kwok: Daemon | undefined;
  try {
    say('starting a local control plane (etcd, kube-apiserver, KCM, scheduler, kwok) and the kruise-ts webhook');
    cluster = await startCluster({ dir, bin: binDir(repoRoot) });
    kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests')]);
    kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    // No daemon pods: 1,000 of them would only load the scheduler and kwok, and nothing here needs them.
    kubectl(cluster.kubeconfig, ['delete', 'daemonset', '-n', 'kruise-system', '--all']);
    manager = await startManager({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir });
    kwok = startBenchKwok(cluster, dir);
    await run(cluster.kubeconfig, 'bench');
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
