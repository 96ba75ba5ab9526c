// `npm run bench:sidecarset [-- --nodes 1000 --pods 10000]`: the SidecarSet controller at scale on its own loopback
// cluster (harness): kwok nodes, pods bound to them in bulk through the API (and the injecting webhook), one
// SidecarSet matching them all. Prints figures — status latency, a full rollout at maxUnavailable 10% (time and the
// controller's API requests), controller memory — and asserts nothing about them. Stops everything it starts.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { resources } from '../../shared/kube/resources.js';
import { makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { binDir, kubectl, startCluster } from '../../e2e/harness/cluster/cluster.js';
import { startController } from '../../e2e/harness/cluster/controller.js';
import { startManager } from '../../e2e/harness/cluster/manager.js';
import { BenchKubelet } from './kubelet.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const NODES = arg('nodes', 1000);
const PODS = arg('pods', 10_000);
const CONCURRENCY = 32;
const NS = 'bench';
const say = (s: string) => process.stdout.write(`${s}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function parallel<T>(items: T[], n: number, f: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await f(items[next++]!);
  }));
}

async function until<T>(what: string, f: () => Promise<T | false | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** rest_client_requests_total by method from the controller's /metrics. */
async function requests(healthPort: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^rest_client_requests_total\{method="(\w+)"\} (\d+)/gm)) out[m[1]!] = Number(m[2]);
  return out;
}
const delta = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(b).map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)]).filter(([, v]) => (v as number) > 0));
const total = (r: Record<string, number>) => Object.values(r).reduce((x, y) => x + y, 0);

function fakeNode(i: number) {
  const name = `kwok-bench-${i}`;
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: { type: 'kwok', 'kubernetes.io/hostname': name } },
    // Its own pod CIDR: kwok hands pod IPs out of it (the harness default /24 would run dry).
    spec: { podCIDR: `10.${16 + (i >> 8)}.${i & 255}.0/24` },
    status: { allocatable: { cpu: '32', memory: '256Gi', pods: '110' }, capacity: { cpu: '32', memory: '256Gi', pods: '110' } },
  };
}

async function status(rest: KubeRest): Promise<Record<string, number>> {
  const s = await rest.get<SidecarSet>(resources.sidecarSets, { name: 'bench' });
  return (s.status ?? {}) as unknown as Record<string, number>;
}

// Everything started is stopped on every way out: normal end, an error, a signal, an unhandled rejection.
const stops: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;
const cleanup = () => (cleaning ??= (async () => { for (const stop of stops) await stop().catch(() => {}); })());
const abort = (why: unknown, code: number) => {
  process.stderr.write(`bench aborted: ${why instanceof Error ? (why.stack ?? why.message) : String(why)}\n`);
  void cleanup().finally(() => process.exit(code));
};
process.once('SIGINT', () => abort('SIGINT', 130));
process.once('SIGTERM', () => abort('SIGTERM', 143));
process.on('unhandledRejection', (err) => abort(err, 1));

async function main(): Promise<void> {
  const dir = join(tmpdir(), `kruise-ts-bench-sidecarset-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  stops.push(async () => rmSync(dir, { recursive: true, force: true }));
  const cluster = await startCluster({ dir, bin: binDir(repoRoot), fakeNodes: 3 });
  stops.unshift(() => cluster.stop());
  try {
    kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests')]);
    kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    const manager = await startManager({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir });
    stops.unshift(() => manager.stop());
    const controller = await startController({ repoRoot, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir, name: 'bench-controller' });
    stops.unshift(() => controller.stop());
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfig);
    const rest = makeRest(kc, { timeoutMs: 120_000 });
    say(`cluster up; ${NODES} nodes, ${PODS} pods, ${CONCURRENCY} client requests in flight`);

    let t = Date.now();
    const nodes = Array.from({ length: NODES }, (_, i) => i);
    await parallel(nodes, CONCURRENCY, (i) => rest.create(resources.nodes, fakeNode(i)));
    say(`nodes created: ${secs(Date.now() - t)}`);

    await rest.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    const tSet = Date.now();
    await rest.create<SidecarSet>(resources.sidecarSets, {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'bench' },
      spec: { selector: { matchLabels: { app: 'bench' } }, containers: [{ name: 'sidecar', image: 'busybox:1.35.0', command: ['sleep', '1d'] }],
        updateStrategy: { maxUnavailable: '10%' } },
    });
    const memIdle = memory(controller.daemon.pid);

    t = Date.now();
    await parallel(Array.from({ length: PODS }, (_, i) => i), CONCURRENCY, (i) => rest.create<Pod>(resources.pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: `bench-${i}`, namespace: NS, labels: { app: 'bench' } },
      // Tolerating NotReady nodes for good: an overloaded kwok misses heartbeats, and taint-based eviction would
      // delete pods mid-benchmark.
      spec: { nodeName: `kwok-bench-${i % NODES}`, containers: [{ name: 'app', image: 'nginx:1.7.9' }], tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }] },
    }));
    const tLastPod = Date.now();
    say(`pods created (through the injecting webhook): ${secs(tLastPod - t)} (${Math.round(PODS / ((tLastPod - t) / 1000))}/s)`);
    await until('status matchedPods', async () => (await status(rest)).matchedPods === PODS, 600_000, 100);
    const tMatched = Date.now();
    say(`status.matchedPods = ${PODS}: ${secs(tMatched - tLastPod)} after the last pod was created (${secs(tMatched - tSet)} after the SidecarSet)`);
    // From here on the bench plays kubelet too: it restarts changed containers, and it re-readies pods the node
    // lifecycle controller marked NotReady while an overloaded kwok missed node heartbeats (kwok never re-renders them).
    const kubelet = new BenchKubelet(kc, rest, NS, CONCURRENCY);
    await kubelet.start();
    stops.unshift(async () => kubelet.stop());
    let lastReport = Date.now();
    await until('status readyPods', async () => {
      const s = await status(rest);
      if (Date.now() - lastReport > 60_000) {
        lastReport = Date.now();
        say(`  waiting for kwok: ${s.readyPods} pods ready`);
      }
      return s.readyPods === PODS && s.updatedPods === PODS;
    }, 3_600_000, 250);
    const tReady = Date.now();
    // Readiness arrives at kwok's pace; what the controller owes is reflecting it promptly.
    const lastReady = Math.max(...(await rest.list<Pod>(resources.pods, { namespace: NS })).items
      .map((p) => new Date(p.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? 0).getTime()));
    say(`status ready/updated = ${PODS}: ${secs(tReady - tLastPod)} after the last pod was created, ${secs(tReady - lastReady)} after the last pod became Ready (1 s resolution)`);
    const memLoaded = memory(controller.daemon.pid);

    const before = await requests(controller.healthPort);
    const patchesBefore = kubelet.patches;
    kubelet.peakUnavailable = 0;
    t = Date.now();
    const edited = await rest.patch<SidecarSet>(resources.sidecarSets, { name: 'bench' }, 'json', [{ op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.36.0' }]);
    lastReport = Date.now();
    await until('rollout', async () => {
      const s = await status(rest);
      if (Date.now() - lastReport > 15_000) {
        lastReport = Date.now();
        say(`  rollout ${secs(lastReport - t)}: updated ${s.updatedPods}, updated+ready ${s.updatedReadyPods}, kubelet peak unavailable ${kubelet.peakUnavailable}`);
      }
      return s.observedGeneration === edited.metadata?.generation && s.updatedPods === PODS && s.updatedReadyPods === PODS;
    }, 3_600_000, 500);
    const rollout = Date.now() - t;
    kubelet.stop();
    const used = delta(before, await requests(controller.healthPort));
    const memAfter = memory(controller.daemon.pid);

    say('');
    say('| figure | value |');
    say('|---|---|');
    say(`| status.matchedPods correct after the last pod exists | ${secs(tMatched - tLastPod)} (target ≤ 5 s) |`);
    say(`| status.readyPods correct after the last pod became Ready (kwok's pace before that) | ${secs(tReady - lastReady)} |`);
    say(`| full rollout, maxUnavailable 10% | ${secs(rollout)} (${(rollout / PODS).toFixed(1)} ms per pod) |`);
    say(`| controller API requests during the rollout | ${total(used)} (${JSON.stringify(used)}; ${(total(used) / PODS).toFixed(2)} per pod) |`);
    say(`| stand-in kubelet status patches during the rollout (baseline: 2 per pod) | ${kubelet.patches - patchesBefore} |`);
    say(`| most pods unavailable at once (seen by the kubelet's watch; budget ${Math.ceil(PODS / 10)}) | ${kubelet.peakUnavailable} |`);
    say(`| controller RSS: idle / ${PODS} pods cached / after rollout (peak) | ${memIdle.rss} / ${memLoaded.rss} / ${memAfter.rss} MB (${memAfter.peak} MB) (target ≤ 300 MB) |`);
  } finally {
    await cleanup();
  }
}

await main();
