// `npm run bench:cloneset [-- --nodes 100 --replicas 1000 --limit-minutes 15]`: a CloneSet against a Deployment of the
// same size on the bench's own loopback cluster (harness, its own wide kwok, no node lifecycle), in one run: time from
// creation to all Ready, then an image rollout at maxUnavailable 10% — in place for the CloneSet (the bench plays
// kubelet and restarts the changed container), a RollingUpdate (maxSurge 0) for the Deployment — with apiserver
// requests per pod and the controller's memory. Prints figures and ratios, asserts nothing; stops everything it
// starts, and stops by itself after --limit-minutes. Reuses the SidecarSet bench's kwok, kubelet and probes.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig, type V1Deployment, type V1Node } from '@kubernetes/client-node';
import type { CloneSet } from '../../shared/api/cloneset.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { resources, type Resource } from '../../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { binDir, kubectl, startCluster } from '../../e2e/harness/cluster/cluster.js';
import { startController } from '../../e2e/harness/cluster/controller.js';
import { startManager } from '../../e2e/harness/cluster/manager.js';
import { killGroups } from '../../e2e/harness/cluster/state.js';
import { BenchKubelet } from '../sidecarset/kubelet.js';
import { BENCH_KWOK_ANNOTATION, startBenchKwok } from '../sidecarset/kwok.js';
import { apiserverRequests, delta, describe, load, memory, total } from '../sidecarset/probes.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} wants a positive number, got ${process.argv[i + 1]}`);
  return v;
};
const NODES = arg('nodes', 100);
const N = arg('replicas', 1000);
const LIMIT_MS = arg('limit-minutes', 15) * 60_000;
const CONCURRENCY = 32;
const NS = 'bench';
const deployments: Resource = { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true };
const t0 = Date.now();
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const say = (s: string) => process.stdout.write(`[${secs(Date.now() - t0).padStart(7)} | load ${load()}] ${s}\n`);

const figures: [string, string][] = [];
const figure = (name: string, value: string) => { figures.push([name, `${value} (load ${load()})`]); say(`${name}: ${value}`); };
const printFigures = () => {
  process.stdout.write(`\n${NODES} kwok nodes, ${N} replicas each, 2-core machine shared with other work; load = 1/5/15-min load average\n\n| figure | value |\n|---|---|\n`);
  for (const [k, v] of figures) process.stdout.write(`| ${k} | ${v} |\n`);
};

let exited: () => string | undefined = () => undefined;
async function until(what: string, f: () => Promise<boolean>, progress: () => Promise<string>): Promise<void> {
  let last = Date.now();
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(`${what}: ${gone} exited`);
    if (await f().catch(() => false)) return;
    if (Date.now() - last >= 10_000) { last = Date.now(); say(`  ${what}: ${await progress().catch((e: Error) => e.message)}`); }
    await new Promise((r) => setTimeout(r, 200));
  }
}

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

function benchNode(i: number) {
  const name = `kwok-bench-${i}`;
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, annotations: { 'kwok.x-k8s.io/node': BENCH_KWOK_ANNOTATION, 'node.alpha.kubernetes.io/ttl': '0' },
      labels: { type: 'kwok-bench', 'kubernetes.io/hostname': name } },
    spec: { podCIDR: `10.${16 + (i >> 8)}.${i & 255}.0/24` },
    status: { allocatable: { cpu: '32', memory: '256Gi', pods: '110' }, capacity: { cpu: '32', memory: '256Gi', pods: '110' } },
  };
}

const template = (app: string) => ({
  metadata: { labels: { app } },
  // The bench's nodes keep kwok's taints (no node lifecycle controller to lift them): tolerate everything.
  spec: { nodeSelector: { type: 'kwok-bench' }, tolerations: [{ operator: 'Exists' }], containers: [{ name: 'app', image: 'nginx:1.7.9', imagePullPolicy: 'IfNotPresent' }] },
});

const cloneSetStatus = async (rest: KubeRest) => (await rest.get<CloneSet>(resources.cloneSets, { namespace: NS, name: 'clone' })).status;
const deploymentStatus = async (rest: KubeRest) => (await rest.get<V1Deployment>(deployments, { namespace: NS, name: 'deploy' })).status;

async function main(): Promise<void> {
  const dir = join(tmpdir(), `kruise-ts-bench-cloneset-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  stops.push(async () => rmSync(dir, { recursive: true, force: true }));
  const bin = binDir(repoRoot);
  const cluster = await startCluster({ dir, bin, fakeNodes: 1, kcmDisable: ['node-lifecycle-controller', 'taint-eviction-controller', 'ttl-controller'] });
  stops.unshift(() => cluster.stop());
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
  const rss = () => { const m = memory(controller.daemon.pid); return `RSS ${m.rss} MB (peak ${m.peak} MB)`; };
  say(`cluster up (logs in ${cluster.logDir}); ${NODES} nodes, ${N} replicas, limit ${LIMIT_MS / 60_000} min`);

  await forEachLimit(Array.from({ length: NODES }, (_, i) => i), CONCURRENCY, async (i) => { await rest.create(resources.nodes, benchNode(i)); });
  const readyNodes = async () => (await rest.list<V1Node>(resources.nodes, { labelSelector: 'type=kwok-bench' })).items
    .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  await until('nodes Ready', async () => (await readyNodes()) === NODES, async () => `${await readyNodes()} of ${NODES}`);
  await rest.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const kubelet = new BenchKubelet(kc, rest, NS, CONCURRENCY);
  await kubelet.start();
  stops.unshift(async () => kubelet.stop());
  kubelet.startActing();
  const memIdle = rss();

  // 1. CloneSet: creation to all Ready, then an in-place rollout.
  let api = apiserverRequests(cluster.kubeconfig);
  let t = Date.now();
  await rest.create<CloneSet>(resources.cloneSets, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'clone', namespace: NS },
    spec: { replicas: N, selector: { matchLabels: { app: 'clone' } }, template: template('clone') as never,
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '10%' } },
  });
  await until('CloneSet Ready', async () => (await cloneSetStatus(rest))?.readyReplicas === N,
    async () => { const s = await cloneSetStatus(rest); return `replicas ${s?.replicas ?? 0}, ready ${s?.readyReplicas ?? 0}; controller ${rss()}`; });
  const cloneCreate = Date.now() - t;
  const cloneCreateApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('CloneSet: creation to all Ready', secs(cloneCreate));
  figure('CloneSet creation: apiserver requests', `${describe(cloneCreateApi)} (${(total(cloneCreateApi) / N).toFixed(2)} per pod)`);
  const memLoaded = rss();

  api = apiserverRequests(cluster.kubeconfig);
  kubelet.peakUnavailable = 0;
  t = Date.now();
  const patched = await rest.patch<CloneSet>(resources.cloneSets, { namespace: NS, name: 'clone' }, 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.9.1' }]);
  await until('CloneSet in-place rollout', async () => {
    const s = await cloneSetStatus(rest);
    // The status of the edited generation, not the one left from before the edit.
    return (s?.observedGeneration ?? 0) >= (patched.metadata?.generation ?? 0) && s?.updatedReadyReplicas === N && s.readyReplicas === N && s.currentRevision === s.updateRevision;
  }, async () => { const s = await cloneSetStatus(rest); return `updated ${s?.updatedReplicas ?? 0}, updated+ready ${s?.updatedReadyReplicas ?? 0}; most unavailable ${kubelet.peakUnavailable}; controller ${rss()}`; });
  const cloneRollout = Date.now() - t;
  const cloneRolloutApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('CloneSet: in-place image rollout at maxUnavailable 10%', secs(cloneRollout));
  figure('CloneSet rollout: apiserver requests', `${describe(cloneRolloutApi)} (${(total(cloneRolloutApi) / N).toFixed(2)} per pod)`);
  figure(`CloneSet rollout: most pods unavailable at once, seen by the bench's watch (budget ${Math.ceil(N / 10)})`, String(kubelet.peakUnavailable));
  const memRollout = rss();
  await rest.delete(resources.cloneSets, { namespace: NS, name: 'clone' });
  await until('CloneSet pods gone', async () => (await rest.list(resources.pods, { namespace: NS, labelSelector: 'app=clone' })).items.length === 0, async () => 'waiting');

  // 2. The same with a Deployment (kube-controller-manager), RollingUpdate maxUnavailable 10%, maxSurge 0.
  api = apiserverRequests(cluster.kubeconfig);
  t = Date.now();
  await rest.create<V1Deployment>(deployments, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'deploy', namespace: NS },
    spec: { replicas: N, selector: { matchLabels: { app: 'deploy' } }, template: template('deploy'),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } } },
  });
  await until('Deployment Ready', async () => (await deploymentStatus(rest))?.readyReplicas === N,
    async () => { const s = await deploymentStatus(rest); return `replicas ${s?.replicas ?? 0}, ready ${s?.readyReplicas ?? 0}`; });
  const deployCreate = Date.now() - t;
  const deployCreateApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('Deployment: creation to all Ready', `${secs(deployCreate)} (CloneSet ${(cloneCreate / deployCreate).toFixed(2)}× this)`);
  figure('Deployment creation: apiserver requests', `${describe(deployCreateApi)} (${(total(deployCreateApi) / N).toFixed(2)} per pod)`);
  api = apiserverRequests(cluster.kubeconfig);
  t = Date.now();
  const edited = await rest.patch<V1Deployment>(deployments, { namespace: NS, name: 'deploy' }, 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.9.1' }]);
  await until('Deployment rolling update', async () => {
    const s = await deploymentStatus(rest);
    return (s?.observedGeneration ?? 0) >= (edited.metadata?.generation ?? 0) && s?.updatedReplicas === N && s.readyReplicas === N && s.replicas === N;
  }, async () => { const s = await deploymentStatus(rest); return `updated ${s?.updatedReplicas ?? 0}, ready ${s?.readyReplicas ?? 0}, replicas ${s?.replicas ?? 0}`; });
  const deployRollout = Date.now() - t;
  const deployRolloutApi = delta(api, apiserverRequests(cluster.kubeconfig));
  figure('Deployment: rolling update (pods recreated)', `${secs(deployRollout)} (CloneSet in place ${(cloneRollout / deployRollout).toFixed(2)}× this)`);
  figure('Deployment rollout: apiserver requests', `${describe(deployRolloutApi)} (${(total(deployRolloutApi) / N).toFixed(2)} per pod; CloneSet ${(total(cloneRolloutApi) / total(deployRolloutApi)).toFixed(2)}× this)`);
  figure('kruise-ts controller memory: idle / CloneSet Ready / after the rollout', `${memIdle} / ${memLoaded} / ${memRollout}`);
  kubelet.stop();
  printFigures();
}

await main().then(() => cleanup().then(() => process.exit(0)), (err: unknown) => abort(err, 1));
