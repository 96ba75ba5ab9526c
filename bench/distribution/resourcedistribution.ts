// `npm run bench:resourcedistribution`: one ResourceDistribution over 1,000 namespaces on a real apiserver. Measures
// the time until every copy exists, and until a source edit has reached every copy, with the API requests the
// controller made (makeRest's onRequest; watch streams not counted). Baseline in the same run: the bench client
// itself creating the same ConfigMap in every namespace at the controller's write concurrency. Starts its own local cluster
// through the e2e harness unless KUBECONFIG is given (that cluster must have the CRDs and must not run another
// kruise-ts controller). Prints figures, asserts nothing, stops by itself.
import { setMaxListeners } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { resourceDistributionController, WRITE_CONCURRENCY } from '../../controller/resourcedistribution/controller.js';
import { runControllers } from '../../controller/run-controllers.js';
import type { ControllerDeps } from '../../controller/types.js';
import { binDir, kubectl, startCluster, type Cluster } from '../../e2e/harness/cluster/cluster.js';
import { realClock } from '../../shared/clock.js';
import { loadConfig } from '../../shared/config.js';
import { silentLogger } from '../../shared/log.js';
import { makeKube } from '../../shared/kube/client.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import { informerFactory } from '../../shared/kube/informer-factory.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, makeRest } from '../../shared/kube/rest.js';

const NAMESPACES = 1_000;
const CLIENT_CONCURRENCY = 32;
const PHASE_TIMEOUT_MS = 180_000;
const QUIET_MS = 3_000;
const LABEL = 'kruise-ts-bench';
const RD_NAME = 'bench-distribution';
const repoRoot = resolve(import.meta.dirname, '../..');
const say = (s: string) => process.stderr.write(`[bench] ${s}\n`);

async function pool<T>(items: readonly T[], concurrency: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < items.length) await f(items[next++]!); }));
}

async function timed(f: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
}

/** Requests by method, with snapshots per phase. */
function requestCounter() {
  const counts = new Map<string, number>();
  let last = Date.now();
  return {
    onRequest: (method: string) => { counts.set(method, (counts.get(method) ?? 0) + 1); last = Date.now(); },
    snapshot: () => new Map(counts),
    since: (before: Map<string, number>) => {
      const out: Record<string, number> = {};
      for (const [m, n] of counts) if (n - (before.get(m) ?? 0) > 0) out[m] = n - (before.get(m) ?? 0);
      return out;
    },
    /** Resolves once no request was made for QUIET_MS. */
    quiet: async () => { while (Date.now() - last < QUIET_MS) await new Promise((r) => setTimeout(r, 200)); },
  };
}

const show = (r: Record<string, number>) => {
  const total = Object.values(r).reduce((a, b) => a + b, 0);
  return `${String(total).padStart(5)} (${Object.entries(r).map(([m, n]) => `${m} ${n}`).join(', ') || 'none'})`;
};

async function main(): Promise<void> {
  let cluster: Cluster | undefined;
  let dir: string | undefined;
  let kubeconfig = process.env.KUBECONFIG;
  const ownCluster = !kubeconfig;
  if (!kubeconfig) {
    dir = join(tmpdir(), `kruise-ts-bench-rd-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    say('starting a local cluster (etcd, kube-apiserver, KCM, scheduler, kwok)');
    cluster = await startCluster({ dir, bin: binDir(repoRoot) });
    kubeconfig = cluster.kubeconfig;
    kubectl(kubeconfig, ['apply', '-k', join(repoRoot, 'manifests/crd')]);
    kubectl(kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
  }
  const stop = new AbortController();
  // Every shared cache and worker listens on it, as in controller/main.ts.
  setMaxListeners(256, stop.signal);
  try {
    const kube = makeKube({ kubeconfig });
    const client = makeRest(kube.kc);
    const counter = requestCounter();
    const rest = makeRest(kube.kc, { onRequest: counter.onRequest });
    const names = Array.from({ length: NAMESPACES }, (_, i) => `rd-bench-${String(i).padStart(4, '0')}`);

    const resource = (version: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench-copy', labels: { [`${LABEL}-copy`]: '1' } },
      data: { version, payload: 'x'.repeat(1024) } });
    const rd = (name: string, version: string, targets: object) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name },
      spec: { resource: resource(version), targets } }) as KubernetesObject;

    say(`creating ${NAMESPACES} namespaces`);
    const nsSeconds = await timed(() => pool(names, CLIENT_CONCURRENCY, async (name) => {
      try { await client.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [LABEL]: 'rd' } } }); }
      catch (err) { if (!isConflict(err)) throw err; }
    }));
    // The baseline writes what the controller writes: the same ConfigMap with the three annotations and an
    // ownerReference (not a controller one, so the controller leaves these alone) to an RD that targets nothing.
    const owner = await client.create(resources.resourceDistributions, rd('bench-baseline', '1', {}));
    const baseline = await timed(() => pool(names, WRITE_CONCURRENCY, async (namespace) => {
      const r = resource('1');
      await client.create(resources.configMaps, { ...r, metadata: { name: 'bench-baseline', namespace, labels: { other: '1' },
        annotations: { 'kruise.io/resourcedistribution.resource.hashcode': 'f'.repeat(64), 'kruise.io/resourcedistribution.resource.from': 'bench-baseline',
          'kruise.io/resourcedistribution.resource.distributed.timestamp': new Date().toISOString() },
        ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'bench-baseline', uid: owner.metadata!.uid! }] } } as KubernetesObject);
    }));

    // The bench's own view of the copies, to see when every one has a given version.
    const versions = new Map<string, string | undefined>();
    const watchers = informerFactory({ rest: client, signal: stop.signal, log: silentLogger() });
    const copies = watchers.cache<KubernetesObject & { data?: Record<string, string> }>(resources.configMaps, { labelSelector: `${LABEL}-copy=1` });
    const waiters: (() => void)[] = [];
    copies.onChange((cm, verb) => {
      const ns = cm.metadata?.namespace ?? '';
      if (verb === 'delete') versions.delete(ns); else versions.set(ns, cm.data?.version);
      waiters.forEach((w) => w());
    });
    await watchers.synced();
    const allAt = (version: string) => new Promise<void>((done, fail) => {
      const check = () => { if ([...versions.values()].filter((v) => v === version).length >= NAMESPACES) done(); };
      waiters.push(check);
      check();
      setTimeout(() => fail(new Error(`copies at version ${version}: ${[...versions.values()].filter((v) => v === version).length}/${NAMESPACES} after ${PHASE_TIMEOUT_MS} ms`)), PHASE_TIMEOUT_MS).unref();
    });

    const registry = new Registry();
    const deps: ControllerDeps = {
      kube, rest, log: silentLogger(), metrics: registry, clock: realClock, namespace: 'kruise-system',
      config: loadConfig({ FEATURE_GATES: 'ResourceDistributionGate=true', LEADER_ELECT: 'false' }),
      informers: informerFactory({ rest, signal: stop.signal, log: silentLogger() }),
      events: (component) => eventRecorder({ rest, component, log: silentLogger() }),
    };
    const running = runControllers([resourceDistributionController], deps, stop.signal);
    await deps.informers.synced();
    await counter.quiet();

    say('distributing');
    let before = counter.snapshot();
    const createSeconds = await timed(async () => { await client.create(resources.resourceDistributions, rd(RD_NAME, '1', { namespaceLabelSelector: { matchLabels: { [LABEL]: 'rd' } } })); await allAt('1'); });
    const createReqs = counter.since(before);
    await counter.quiet();
    const createSettled = counter.since(before);

    say('editing the source');
    before = counter.snapshot();
    const editSeconds = await timed(async () => {
      await client.patch(resources.resourceDistributions, { name: RD_NAME }, 'merge', { spec: { resource: { data: { version: '2' } } } });
      await allAt('2');
    });
    const editReqs = counter.since(before);
    await counter.quiet();
    const editSettled = counter.since(before);
    const status = (await client.get<KubernetesObject & { status?: { desired?: number; succeeded?: number } }>(resources.resourceDistributions, { name: RD_NAME })).status;

    console.log(`ResourceDistribution benchmark: ${NAMESPACES} namespaces, ${ownCluster ? 'local cluster (harness)' : 'cluster from KUBECONFIG'}, controller write concurrency ${WRITE_CONCURRENCY}`);
    console.log(`  reference: create ${NAMESPACES} namespaces (client, concurrency ${CLIENT_CONCURRENCY})      ${nsSeconds.toFixed(2).padStart(6)} s`);
    console.log(`  baseline:  create the same ${NAMESPACES} ConfigMaps directly (client, concurrency ${WRITE_CONCURRENCY}) ${baseline.toFixed(2).padStart(6)} s`);
    console.log(`  RD created → all ${NAMESPACES} copies exist                         ${createSeconds.toFixed(2).padStart(6)} s  (${(createSeconds / baseline).toFixed(2)}× baseline)`);
    console.log(`      controller API requests until then ${show(createReqs)}; until quiet ${show(createSettled)}`);
    console.log(`  source edited → all ${NAMESPACES} copies updated                    ${editSeconds.toFixed(2).padStart(6)} s  (${(editSeconds / baseline).toFixed(2)}× baseline)`);
    console.log(`      controller API requests until then ${show(editReqs)}; until quiet ${show(editSettled)}`);
    console.log(`  final status: desired ${status?.desired}, succeeded ${status?.succeeded}`);

    stop.abort();
    await running;
    if (!ownCluster) {
      say('cleaning up');
      await client.delete(resources.resourceDistributions, { name: RD_NAME });
      await client.delete(resources.resourceDistributions, { name: 'bench-baseline' });
      await pool(names, CLIENT_CONCURRENCY, async (name) => { await client.delete(resources.namespaces, { name }); });
    }
  } finally {
    stop.abort();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
