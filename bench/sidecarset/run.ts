// `npm run bench:sidecarset [-- --nodes 1000 --pods 10000 --limit-minutes 15]`: the SidecarSet controller at scale on
// its own loopback cluster (harness): its own kwok with wide parallelism for the nodes, pods bound to them in bulk
// through the API (and the injecting webhook), one SidecarSet matching them all. Prints progress while it runs and
// figures at the end — status latency, a plain-patch baseline, a full rollout at maxUnavailable 10% (time, apiserver
// and controller requests), controller memory — each with the load average, and asserts nothing about them. Stops
// everything it starts, and stops by itself after --limit-minutes, printing the figures it has.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig, type V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet, SidecarSetStatus } from '../../shared/api/sidecarset.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { binDir, kubectl, startCluster } from '../../e2e/harness/cluster/cluster.js';
import { startController } from '../../e2e/harness/cluster/controller.js';
import { startManager } from '../../e2e/harness/cluster/manager.js';
import { killGroups } from '../../e2e/harness/cluster/state.js';
import { BenchKubelet } from './kubelet.js';
import { BENCH_KWOK_ANNOTATION, startBenchKwok } from './kwok.js';
import { apiserverRequests, controllerMetrics, delta, describe, load, memory, total } from './probes.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} wants a positive number, got ${process.argv[i + 1]}`);
  return v;
};
const NODES = arg('nodes', 1000);
const PODS = arg('pods', 10_000);
const LIMIT_MS = arg('limit-minutes', 15) * 60_000;
/** Client requests the bench keeps in flight when creating or patching objects, and kwok's workers per kind of work. */
const CONCURRENCY = 32;
const NS = 'bench';
const SET = 'bench';
const t0 = Date.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const say = (s: string) => process.stdout.write(`[${secs(Date.now() - t0).padStart(7)} | load ${load()}] ${s}\n`);

const figures: [string, string][] = [];
/** Records a figure with the load average at the moment it was taken. */
const figure = (name: string, value: string) => {
  figures.push([name, `${value} (load ${load()})`]);
  say(`${name}: ${value}`);
};
const printFigures = () => {
  process.stdout.write(`\n${NODES} nodes, ${PODS} pods, 2-core machine shared with other work; load = 1/5/15-min load average\n\n| figure | value |\n|---|---|\n`);
  for (const [k, v] of figures) process.stdout.write(`| ${k} | ${v} |\n`);
};

/** Names a process of the stack that has exited, else undefined; set once they run. */
let exited: () => string | undefined = () => undefined;

/** Polls `f` until it answers truthy, printing `progress()` every 10 s. */
async function until<T>(what: string, f: () => Promise<T | false | undefined>, opts: { everyMs?: number; progress?: () => string | Promise<string> } = {}): Promise<T> {
  let lastReport = Date.now();
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(`${what}: ${gone} exited`);
    const v = await f().catch(() => undefined);
    if (v) return v;
    if (opts.progress && Date.now() - lastReport >= 10_000) {
      lastReport = Date.now();
      say(`  ${what}: ${await opts.progress()}`);
    }
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 250));
  }
}

function benchNode(i: number) {
  const name = `kwok-bench-${i}`;
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, annotations: { 'kwok.x-k8s.io/node': BENCH_KWOK_ANNOTATION, 'node.alpha.kubernetes.io/ttl': '0' },
      labels: { type: 'kwok-bench', 'kubernetes.io/hostname': name } },
    // Its own pod CIDR: kwok hands pod IPs out of it (one /24 for all would run dry).
    spec: { podCIDR: `10.${16 + (i >> 8)}.${i & 255}.0/24` },
    status: { allocatable: { cpu: '32', memory: '256Gi', pods: '110' }, capacity: { cpu: '32', memory: '256Gi', pods: '110' } },
  };
}

const benchPod = (i: number): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `bench-${i}`, namespace: NS, labels: { app: 'bench' } },
  spec: { nodeName: `kwok-bench-${i % NODES}`, containers: [{ name: 'app', image: 'nginx:1.7.9' }] },
});

const status = async (rest: KubeRest): Promise<Partial<SidecarSetStatus>> => (await rest.get<SidecarSet>(resources.sidecarSets, { name: SET })).status ?? {};
const statusLine = (s: Partial<SidecarSetStatus>) =>
  `status matched ${s.matchedPods ?? 0}, updated ${s.updatedPods ?? 0}, ready ${s.readyPods ?? 0}, updated+ready ${s.updatedReadyPods ?? 0}`;

// Everything started is stopped on every way out: normal end, an error, the time limit, a signal, an unhandled rejection.
// By pid with polling (killGroups), not a child's exit event: that never comes once the event loop has nothing else
// to do, and the process would end with the rest of the cluster still running.
const stops: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;
const cleanup = () => (cleaning ??= (async () => { for (const stop of stops) await stop().catch(() => {}); })());
const abort = (why: unknown, code: number) => {
  process.stderr.write(`bench aborted: ${why instanceof Error ? (why.stack ?? why.message) : String(why)}\n`);
  printFigures();
  void cleanup().finally(() => process.exit(code));
};
process.once('SIGINT', () => abort('SIGINT', 130));
process.once('SIGTERM', () => abort('SIGTERM', 143));
process.on('unhandledRejection', (err) => abort(err, 1));
setTimeout(() => abort(`time limit of ${LIMIT_MS / 60_000} min reached (--limit-minutes); figures so far above`, 2), LIMIT_MS).unref();

async function main(): Promise<void> {
  const dir = join(tmpdir(), `kruise-ts-bench-sidecarset-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  stops.push(async () => rmSync(dir, { recursive: true, force: true }));
  const bin = binDir(repoRoot);
  // No node lifecycle: it would mark nodes, and then their pods, NotReady whenever the loaded machine renews a node
  // lease late, and what the bench measures would be node-health churn, not the SidecarSet controller. No TTL
  // controller: past 100 nodes it patches every node's TTL annotation.
  const cluster = await startCluster({ dir, bin, fakeNodes: 1, kcmDisable: ['node-lifecycle-controller', 'taint-eviction-controller', 'ttl-controller'] });
  stops.unshift(() => cluster.stop());
  // CRDs and webhook configurations only: the manager and daemon workloads would put a daemon pod on every node.
  kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests/crd')]);
  kubectl(cluster.kubeconfig, ['apply', '-f', join(repoRoot, 'manifests/base/namespace.yaml'), '-f', join(repoRoot, 'manifests/base/webhooks.yaml')]);
  kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
  const kwok = startBenchKwok({ bin, kubeconfig: cluster.kubeconfig, dir, logDir: cluster.logDir, parallelism: CONCURRENCY });
  stops.unshift(() => killGroups([kwok.pid]));
  const manager = await startManager({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir, asAdmin: true });
  stops.unshift(() => killGroups([manager.daemon.pid]));
  const controller = await startController({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir, name: 'bench-controller', asAdmin: true });
  stops.unshift(() => killGroups([controller.daemon.pid]));
  exited = () => [...cluster.daemons, kwok, manager.daemon, controller.daemon].find((d) => d.child.exitCode !== null || d.child.signalCode !== null)?.name;
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  const rest = makeRest(kc, { timeoutMs: 120_000 });
  const ctl = () => controllerMetrics(controller.healthPort);
  const mem = async () => {
    if (exited()) return `${exited()} exited`;
    const m = memory(controller.daemon.pid);
    return `RSS ${m.rss} MB, heap ${(await ctl()).heapMB} MB`;
  };
  say(`cluster up (logs in ${cluster.logDir}); ${NODES} nodes, ${PODS} pods, ${CONCURRENCY} requests in flight, limit ${LIMIT_MS / 60_000} min`);

  let t = Date.now();
  const nodeIndexes = Array.from({ length: NODES }, (_, i) => i);
  let nodesCreated = 0;
  const nodesTimer = setInterval(() => say(`  nodes: ${nodesCreated} created`), 10_000);
  await forEachLimit(nodeIndexes, CONCURRENCY, async (i) => { await rest.create(resources.nodes, benchNode(i)); nodesCreated++; });
  clearInterval(nodesTimer);
  const readyNodes = async () => (await rest.list<V1Node>(resources.nodes, { labelSelector: 'type=kwok-bench' })).items
    .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  await until('nodes Ready', async () => (await readyNodes()) === NODES, { everyMs: 1000, progress: async () => `${await readyNodes()} of ${NODES}` });
  figure('nodes created and Ready (bench kwok)', secs(Date.now() - t));

  await rest.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  // The bench's watch of its pods: it sees when pods become ready, and plays kubelet once told to act.
  const kubelet = new BenchKubelet(kc, rest, NS, CONCURRENCY);
  await kubelet.start();
  stops.unshift(async () => kubelet.stop());
  const tSet = Date.now();
  await rest.create<SidecarSet>(resources.sidecarSets, {
    apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', metadata: { name: SET },
    spec: { selector: { matchLabels: { app: 'bench' } }, containers: [{ name: 'sidecar', image: 'busybox:1.35.0', command: ['sleep', '1d'],
        // Requests (Burstable pods) so the resources-only rollout below can resize in place without changing QoS.
        resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
      updateStrategy: { maxUnavailable: '10%' } },
  });
  await new Promise((r) => setTimeout(r, 2_000));
  const memIdle = await mem();

  t = Date.now();
  let created = 0;
  const podsTimer = setInterval(() => void rest.get<SidecarSet>(resources.sidecarSets, { name: SET }).then((s) =>
    say(`  pods: ${created} created (${Math.round(created / ((Date.now() - t) / 1000))}/s), ${kubelet.podsSeen} started by kwok; ${statusLine(s.status ?? {})}`), () => {}), 10_000);
  const apiBeforePods = apiserverRequests(cluster.kubeconfig);
  await forEachLimit(Array.from({ length: PODS }, (_, i) => i), CONCURRENCY, async (i) => { await rest.create<Pod>(resources.pods, benchPod(i)); created++; });
  clearInterval(podsTimer);
  const tLastPod = Date.now();
  figure('pods created through the injecting webhook', `${secs(tLastPod - t)} (${Math.round(PODS / ((tLastPod - t) / 1000))}/s)`);
  await until('status matched', async () => {
    const s = await status(rest);
    return s.matchedPods === PODS && s.updatedPods === PODS;
  }, { everyMs: 100, progress: async () => statusLine(await status(rest)) });
  const tMatched = Date.now();
  figure('status matchedPods = updatedPods = all pods, after the last pod was created (target ≤ 5 s)', `${secs(tMatched - tLastPod)} (${secs(tMatched - tSet)} after the SidecarSet was created)`);

  // Readiness comes at kwok's pace; what the controller owes is reflecting it promptly. From here on the bench plays
  // kubelet too.
  kubelet.startActing();
  await until('status ready', async () => {
    const s = await status(rest);
    return kubelet.podsSeen === PODS && kubelet.unavailableNow === 0 && s.readyPods === PODS;
  }, { everyMs: 100, progress: async () => `${kubelet.podsSeen} started by kwok, ${kubelet.unavailableNow} of them unavailable; ${statusLine(await status(rest))}` });
  const tReady = Date.now();
  figure('status readyPods = all pods, after the bench\'s watch saw the last pod become ready', `${secs(tReady - kubelet.lastAvailableAt)} (kwok made all pods ready ${secs(kubelet.lastAvailableAt - tLastPod)} after the last was created)`);
  figure('apiserver requests from the first pod create to correct status', describe(delta(apiBeforePods, apiserverRequests(cluster.kubeconfig))));
  await new Promise((r) => setTimeout(r, 2_000));
  const memLoaded = await mem();

  // Baseline: the least a rollout costs the API — every pod's image patched once by the bench itself, unbatched, and
  // the stand-in kubelet restarting it — measured the same way as the rollout below.
  let apiBefore = apiserverRequests(cluster.kubeconfig);
  let ctlBefore = (await ctl()).requests;
  let patchesBefore = kubelet.patches;
  t = Date.now();
  let patched = 0;
  const patchTimer = setInterval(() => say(`  baseline: ${patched} pods patched, ${kubelet.unavailableNow} unavailable, ${kubelet.patches - patchesBefore} kubelet status patches`), 10_000);
  await forEachLimit(Array.from({ length: PODS }, (_, i) => i), CONCURRENCY, async (i) => {
    // By name: the injected sidecar comes first in the list.
    await rest.patch(resources.pods, { namespace: NS, name: `bench-${i}` }, 'strategic', { spec: { containers: [{ name: 'app', image: 'nginx:1.9.1' }] } });
    patched++;
  });
  clearInterval(patchTimer);
  await until('baseline', async () => kubelet.unavailableNow === 0 && (await status(rest)).readyPods === PODS,
    { progress: async () => `${kubelet.unavailableNow} pods unavailable; ${statusLine(await status(rest))}` });
  const baseline = Date.now() - t;
  const baselineApi = delta(apiBefore, apiserverRequests(cluster.kubeconfig));
  figure('baseline: bench patches every pod\'s app image (unbatched), stand-in kubelet restarts them', `${secs(baseline)} (${(baseline / PODS).toFixed(1)} ms per pod)`);
  figure('baseline apiserver requests', `${describe(baselineApi)} (${(total(baselineApi) / PODS).toFixed(2)} per pod)`);
  figure('baseline: controller requests meanwhile (status only)', describe(delta(ctlBefore, (await ctl()).requests)));
  const memBaseline = await mem();

  apiBefore = apiserverRequests(cluster.kubeconfig);
  ctlBefore = (await ctl()).requests;
  patchesBefore = kubelet.patches;
  kubelet.peakUnavailable = 0;
  t = Date.now();
  const edited = await rest.patch<SidecarSet>(resources.sidecarSets, { name: SET }, 'json', [{ op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.36.0' }]);
  await until('rollout', async () => {
    const s = await status(rest);
    return s.observedGeneration === edited.metadata?.generation && s.updatedPods === PODS && s.updatedReadyPods === PODS && s.readyPods === PODS;
  }, { progress: async () => `${statusLine(await status(rest))}; most unavailable at once ${kubelet.peakUnavailable}; controller ${await mem()}` });
  const rollout = Date.now() - t;
  const rolloutApi = delta(apiBefore, apiserverRequests(cluster.kubeconfig));
  const rolloutCtl = delta(ctlBefore, (await ctl()).requests);
  figure('full rollout at maxUnavailable 10% (SidecarSet edit to status all updated and ready)', `${secs(rollout)} (${(rollout / PODS).toFixed(1)} ms per pod; ${(rollout / baseline).toFixed(2)}× the baseline)`);
  figure('status after the last pod became available again', secs(Date.now() - kubelet.lastAvailableAt));
  figure('rollout apiserver requests', `${describe(rolloutApi)} (${(total(rolloutApi) / PODS).toFixed(2)} per pod; ${(total(rolloutApi) / total(baselineApi)).toFixed(2)}× the baseline)`);
  figure('rollout controller requests', `${describe(rolloutCtl)} (${(total(rolloutCtl) / PODS).toFixed(2)} per pod)`);
  figure('rollout stand-in kubelet status patches (1 per pod restarted)', String(kubelet.patches - patchesBefore));
  figure(`most pods unavailable at once during the rollout, seen by the bench's watch (budget ${Math.ceil(PODS / 10)})`, String(kubelet.peakUnavailable));

  // Resources only (kruise-ts extension): every pod resized through pods/resize in the same batches, or, where the
  // apiserver refuses (kube-apiserver 1.34 answers "Pod running on node without support for resize" for kwok's
  // pods), every pod's refusal recorded once: the SidecarSet's InPlaceResize condition counts them.
  apiBefore = apiserverRequests(cluster.kubeconfig);
  ctlBefore = (await ctl()).requests;
  t = Date.now();
  const resized = await rest.patch<SidecarSet>(resources.sidecarSets, { name: SET }, 'json',
    [{ op: 'replace', path: '/spec/containers/0/resources', value: { requests: { cpu: '20m', memory: '32Mi' } } }]);
  const refusedAll = (st: Partial<SidecarSetStatus>) =>
    st.conditions?.find((c) => c.type === 'InPlaceResize')?.message.startsWith(`the API refused the resize of ${PODS} pod(s)`) ?? false;
  let outcome = 'resized';
  await until('resources rollout', async () => {
    const s = await status(rest);
    if (s.observedGeneration !== resized.metadata?.generation) return false;
    if (refusedAll(s)) outcome = 'refused by the apiserver (each pod once, then new pods only)';
    return (s.updatedPods === PODS && s.updatedReadyPods === PODS) || refusedAll(s);
  }, { progress: async () => statusLine(await status(rest)) });
  const resizeRollout = Date.now() - t;
  const resizeCtl = delta(ctlBefore, (await ctl()).requests);
  figure(`resources-only rollout through pods/resize at maxUnavailable 10% (edit to every pod ${outcome})`,
    `${secs(resizeRollout)} (${(resizeRollout / PODS).toFixed(1)} ms per pod; ${(resizeRollout / rollout).toFixed(2)}× the image rollout)`);
  figure('resources-only rollout apiserver requests', `${describe(delta(apiBefore, apiserverRequests(cluster.kubeconfig)))}`);
  figure('resources-only rollout controller requests', `${describe(resizeCtl)} (${(total(resizeCtl) / PODS).toFixed(2)} per pod)`);
  const peak = memory(controller.daemon.pid).peak;
  figure('controller memory: idle / all pods cached / after baseline / after rollout (target RSS ≤ 300 MB)',
    `${memIdle} / ${memLoaded} / ${memBaseline} / ${await mem()}; peak RSS ${peak} MB`);
  figure('webhook manager memory after rollout', `RSS ${memory(manager.daemon.pid).rss} MB, peak ${memory(manager.daemon.pid).peak} MB`);
  kubelet.stop();
  printFigures();
}

await main().then(() => cleanup().then(() => process.exit(0)), (err: unknown) => abort(err, 1));
