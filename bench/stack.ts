// The stack the kwok benchmarks (bench:sidecarset, bench:cloneset) run on, started once here: the harness's loopback
// cluster without node lifecycle, CRDs and webhook configurations only, the bench's wide kwok, the kruise-ts manager
// (webhooks) and controller as host processes, `nodes` kwok nodes Ready, the bench namespace, and the stand-in
// kubelet watching it (told to act by the bench). Everything started is registered in `run.stops` as it starts, so
// an abort halfway through stops it too.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig, type V1Node } from '@kubernetes/client-node';
import { forEachLimit } from '../shared/concurrency.js';
import { resources } from '../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../shared/kube/rest.js';
import { binDir, kubectl, startCluster, type Cluster } from '../e2e/harness/cluster/cluster.js';
import { startController, type ControllerProcess } from '../e2e/harness/cluster/controller.js';
import { startManager, type Manager } from '../e2e/harness/cluster/manager.js';
import { killGroups } from '../e2e/harness/runtime/process-groups.js';
import type { Daemon } from '../e2e/harness/runtime/process.js';
import type { BenchRun } from './run-kit.js';
import { BenchKubelet } from './sidecarset/kubelet.js';
import { BENCH_KWOK_ANNOTATION, startBenchKwok } from './sidecarset/kwok.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface BenchStackOptions {
  /** Names the run's folder (`kruise-ts-bench-<name>-<pid>` in the temp dir). */
  name: string;
  nodes: number;
  namespace: string;
  /** Client requests kept in flight by the bench and its kubelet, and kwok's workers per kind of work. */
  concurrency: number;
}

export interface BenchStack {
  cluster: Cluster;
  kwok: Daemon;
  manager: Manager;
  controller: ControllerProcess;
  kc: KubeConfig;
  rest: KubeRest;
  kubelet: BenchKubelet;
  /** From the first node create to all nodes Ready. */
  nodesReadyMs: number;
}

export function benchNode(i: number) {
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

export async function startBenchStack(run: BenchRun, opts: BenchStackOptions): Promise<BenchStack> {
  const dir = join(tmpdir(), `kruise-ts-bench-${opts.name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  run.removeOnSuccess(dir);
  const bin = binDir(repoRoot);
  // No node lifecycle: it would mark nodes, and then their pods, NotReady whenever the loaded machine renews a node
  // lease late, and what the bench measures would be node-health churn, not the controller. No TTL controller: past
  // 100 nodes it patches every node's TTL annotation.
  const cluster = await startCluster({ dir, bin, fakeNodes: 1, kcmDisable: ['node-lifecycle-controller', 'taint-eviction-controller', 'ttl-controller'] });
  run.stops.unshift(() => cluster.stop());
  // CRDs and webhook configurations only: the manager and daemon workloads would put a daemon pod on every node.
  kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests/crd')]);
  kubectl(cluster.kubeconfig, ['apply', '-f', join(repoRoot, 'manifests/base/namespace.yaml'), '-f', join(repoRoot, 'manifests/base/webhooks.yaml')]);
  kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
  const kwok = startBenchKwok({ bin, kubeconfig: cluster.kubeconfig, dir, logDir: cluster.logDir, parallelism: opts.concurrency });
  run.stops.unshift(() => killGroups([kwok.pid]));
  const manager = await startManager({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir, asAdmin: true });
  run.stops.unshift(() => killGroups([manager.daemon.pid]));
  const controller = await startController({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir, name: 'bench-controller', asAdmin: true });
  run.stops.unshift(() => killGroups([controller.daemon.pid]));
  run.watch([...cluster.daemons, kwok, manager.daemon, controller.daemon]);
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  const rest = makeRest(kc, { timeoutMs: 120_000 });
  run.say(`cluster up (logs in ${cluster.logDir}); ${opts.nodes} nodes, ${opts.concurrency} requests in flight`);

  const t = Date.now();
  let nodesCreated = 0;
  const nodesTimer = setInterval(() => run.say(`  nodes: ${nodesCreated} created`), 10_000);
  await forEachLimit(Array.from({ length: opts.nodes }, (_, i) => i), opts.concurrency, async (i) => { await rest.create(resources.nodes, benchNode(i)); nodesCreated++; });
  clearInterval(nodesTimer);
  const readyNodes = async () => (await rest.list<V1Node>(resources.nodes, { labelSelector: 'type=kwok-bench' })).items
    .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  await run.until('nodes Ready', async () => (await readyNodes()) === opts.nodes, { everyMs: 1000, progress: async () => `${await readyNodes()} of ${opts.nodes}` });
  const nodesReadyMs = Date.now() - t;

  await rest.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: opts.namespace } });
  // The bench's watch of its pods: it sees when pods become ready, and plays kubelet once told to act.
  const kubelet = new BenchKubelet(kc, rest, opts.namespace, opts.concurrency);
  await kubelet.start();
  run.stops.unshift(async () => kubelet.stop());
  return { cluster, kwok, manager, controller, kc, rest, kubelet, nodesReadyMs };
}
