// `npm run bench:imagepulljob-storm [-- --nodeimages 50 --jobs 10 --rate 20 --seconds 20]`: the reconcile storm of
// openkruise/kruise#2483 (spec/openkruise-v1.9.md §7.3) on a local control plane (the e2e harness: etcd, apiserver,
// KCM, scheduler, kwok). Many ImagePullJobs pull different tags of one image on every NodeImage; a driver plays the
// daemons and the NodeImage controller's TTL expiry, at a fixed rate and in the same order in both phases: a
// daemon progress report (status of one tag on one node) four times in five, a tag expiring from a node's spec
// (the job puts it back, as a Never job does) once in five. The ImagePullJob controller runs in this process, once
// with the tag-level NodeImage event filter and once without (makeImagePullJobController's switch), and its
// reconciles are read from its own controller_runtime_reconcile_total. Prints reconciles per second of each phase
// and their ratio; asserts nothing; stops by itself (hard limit --limit-seconds, default 170).
// The NodeImages carry apps.kruise.io/fake-nodeimage and no NodeImage controller runs: the driver is the only other
// writer, so both phases see the same events. Targets the loopback apiserver only.
import { setMaxListeners } from 'node:events';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { destination, pino } from 'pino';
import { Registry } from 'prom-client';
import { makeImagePullJobController } from '../../controller/imagepulljob/controller.js';
import { runControllers } from '../../controller/run-controllers.js';
import type { ControllerDeps } from '../../controller/types.js';
import { binDir, kubectl, startCluster, type Cluster } from '../../e2e/harness/cluster/cluster.js';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { FakeNodeImageLabel, type ImageTagStatus, type NodeImage } from '../../shared/api/node-image.js';
import { realClock } from '../../shared/clock.js';
import { forEachLimit } from '../../shared/concurrency.js';
import { loadConfig } from '../../shared/config.js';
import { makeKube } from '../../shared/kube/client.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import { informerFactory } from '../../shared/kube/informer-factory.js';
import { isConflict, makeRest, type KubeRest } from '../../shared/kube/rest.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';

const repoRoot = resolve(import.meta.dirname, '../..');
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i > 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} wants a positive integer, got ${process.argv[i + 1]}`);
  return v;
};
const NODEIMAGES = arg('nodeimages', 50);
const JOBS = arg('jobs', 10);
const RATE = arg('rate', 20);
const SECONDS = arg('seconds', 20);
const LIMIT_MS = arg('limit-seconds', 170) * 1000;
const IMAGE = 'bench/storm';
const NS = 'bench-storm';
const LABEL = 'kruise-ts.io/bench-storm';
const CONTROLLER = 'imagepulljob-controller';
const t0 = performance.now();
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const say = (s: string) => process.stdout.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s | load ${load()}] ${s}\n`);
const niName = (i: number) => `storm-${String(i).padStart(3, '0')}`;
const tagOf = (j: number) => `t${j}`;
const metaNow = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The controller's reconciles so far (every result), from its own metrics registry. */
async function reconciles(registry: Registry): Promise<number> {
  const metric = registry.getSingleMetric('controller_runtime_reconcile_total');
  if (!metric) return 0;
  return (await metric.get()).values.filter((v) => v.labels.controller === CONTROLLER).reduce((s, v) => s + v.value, 0);
}

interface PhaseFigures { reconciles: number; perSecond: number; ops: number; skipped: number; seconds: number }

/**
 * Plays daemons and TTL expiry: op k touches NodeImage k mod N and the tag of job (7k) mod J. Status reports go through
 * the status subresource from the driver's own model of each tag's progress; an expiry replaces the spec read from the
 * bench's cache and is skipped on a conflict (the controller wrote the NodeImage meanwhile).
 */
async function drive(client: KubeRest, nodeImages: { get(k: string): NodeImage | undefined }, ms: number): Promise<{ ops: number; skipped: number }> {
  const steps = new Map<string, number>();
  let ops = 0;
  let skipped = 0;
  const start = performance.now();
  for (let k = 0; performance.now() - start < ms; k++) {
    const due = start + (k * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const name = niName(k % NODEIMAGES);
    const tag = tagOf((7 * k) % JOBS);
    const ni = nodeImages.get(name);
    const spec = ni?.spec?.images?.[IMAGE]?.tags.find((t) => t.tag === tag);
    ops++;
    if (!ni || !spec) { skipped++; continue; }
    try {
      if (k % 5 === 4) {
        const tags = ni.spec!.images![IMAGE]!.tags.filter((t) => t.tag !== tag);
        await client.replace(resources.nodeImages, withTypeMeta(resources.nodeImages, { ...ni, spec: { images: { ...ni.spec!.images, [IMAGE]: { ...ni.spec!.images![IMAGE]!, tags } } } }));
        continue;
      }
      const id = `${name}/${tag}`;
      const step = (steps.get(id) ?? 0) + 1;
      steps.set(id, step);
      const statusTags: ImageTagStatus[] = (ni.status?.imageStatuses?.[IMAGE]?.tags ?? []).filter((t) => t.tag !== tag);
      statusTags.push({ tag, version: spec.version, phase: step % 4 === 0 ? 'Succeeded' : 'Pulling', progress: Math.min(100, (step % 4) * 25 + 25),
        startTime: spec.createdAt, ...(step % 4 === 0 ? { completionTime: metaNow() } : {}) });
      await client.patch(resources.nodeImages, { name, subresource: 'status' }, 'merge', {
        status: { desired: ni.spec!.images![IMAGE]!.tags.length, pulling: 0, succeeded: 0, failed: 0, waiting: 0, imageStatuses: { [IMAGE]: { tags: statusTags } } } });
    } catch (err) {
      if (!isConflict(err)) throw err;
      skipped++;
    }
  }
  return { ops, skipped };
}

async function phase(cluster: Cluster, client: KubeRest, benchNodeImages: { get(k: string): NodeImage | undefined }, tagLevel: boolean): Promise<PhaseFigures> {
  const label = tagLevel ? 'tag-level filter on' : 'tag-level filter off';
  const stop = new AbortController();
  setMaxListeners(64, stop.signal);
  const kube = makeKube({ kubeconfig: cluster.kubeconfig });
  const rest = makeRest(kube.kc);
  const log = pino({ level: 'warn' }, destination({ dest: join(cluster.logDir, `bench-storm-controller-${tagLevel ? 'on' : 'off'}.log`), sync: false }));
  const config = loadConfig({ LEADER_ELECT: 'false' });
  const registry = new Registry();
  const informers = informerFactory({ rest, signal: stop.signal, log });
  const deps: ControllerDeps = { rest, informers, log, metrics: registry, clock: realClock, namespace: config.namespace, config,
    events: (component) => eventRecorder({ rest, component, log }) };
  const running = runControllers([makeImagePullJobController({ tagLevelNodeImageEvents: tagLevel })], deps, stop.signal);
  const prefix = `storm-${tagLevel ? 'on' : 'off'}`;
  try {
    await informers.synced();
    say(`${label}: creating ${JOBS} Never ImagePullJobs on ${IMAGE}:t0..t${JOBS - 1}, each on all ${NODEIMAGES} NodeImages`);
    await forEachLimit(Array.from({ length: JOBS }, (_, j) => j), 8, (j) => client.create<ImagePullJob>(resources.imagePullJobs, {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: `${prefix}-${j}`, namespace: NS },
      spec: { image: `${IMAGE}:${tagOf(j)}`, parallelism: NODEIMAGES, selector: { matchLabels: { [LABEL]: 'yes' } },
        completionPolicy: { type: 'Never' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' } }));
    const placed = () => Array.from({ length: NODEIMAGES }, (_, i) => benchNodeImages.get(niName(i))?.spec?.images?.[IMAGE]?.tags.length ?? 0).reduce((a, b) => a + b, 0);
    await until('every tag in every NodeImage', () => placed() === NODEIMAGES * JOBS, 90_000);
    // Settle: the jobs' own status writes wake them once more.
    for (let last = -1, now = await reconciles(registry); now !== last; last = now, now = await reconciles(registry)) await new Promise((r) => setTimeout(r, 1500));
    say(`${label}: ${NODEIMAGES * JOBS} tags placed and the controller is quiet; driving ${RATE} NodeImage writes/s for ${SECONDS} s`);
    const before = await reconciles(registry);
    const start = performance.now();
    const { ops, skipped } = await drive(client, benchNodeImages, SECONDS * 1000);
    // The last events' wake-ups (100 ms coalescing) belong to this window too.
    await new Promise((r) => setTimeout(r, 500));
    const seconds = (performance.now() - start) / 1000;
    const count = (await reconciles(registry)) - before;
    const figures = { reconciles: count, perSecond: count / seconds, ops, skipped, seconds };
    say(`${label}: ${count} reconciles in ${seconds.toFixed(1)} s = ${figures.perSecond.toFixed(1)}/s (driver: ${ops} ops, ${skipped} skipped on conflict)`);
    return figures;
  } finally {
    stop.abort();
    await Promise.race([running, new Promise((r) => setTimeout(r, 10_000))]);
    // Clean slate for the next phase, without the controller: jobs lose their finalizer and go, NodeImages are emptied.
    const jobs = (await client.list<ImagePullJob>(resources.imagePullJobs, { namespace: NS })).items;
    await forEachLimit(jobs, 8, async (j) => {
      await client.patch(resources.imagePullJobs, { namespace: NS, name: j.metadata!.name! }, 'merge', { metadata: { finalizers: null } });
      await client.delete(resources.imagePullJobs, { namespace: NS, name: j.metadata!.name! });
    });
    await forEachLimit(Array.from({ length: NODEIMAGES }, (_, i) => niName(i)), 8, async (name) => {
      await client.patch(resources.nodeImages, { name }, 'json', [{ op: 'replace', path: '/spec', value: {} }]);
      await client.patch(resources.nodeImages, { name, subresource: 'status' }, 'merge', { status: { desired: 0, pulling: 0, succeeded: 0, failed: 0, waiting: 0, imageStatuses: null } });
    });
  }
}

async function main(): Promise<void> {
  const dir = join(repoRoot, 'e2e/.run', `bench-imagepulljob-storm-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  let cluster: Cluster | undefined;
  const benchStop = new AbortController();
  const hard = setTimeout(() => {
    process.stderr.write(`bench: time limit of ${LIMIT_MS / 1000} s reached; stopping the cluster\n`);
    benchStop.abort();
    void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(3));
  }, LIMIT_MS);
  hard.unref();
  try {
    say(`starting a local control plane (logs in ${dir}/logs)`);
    cluster = await startCluster({ dir, bin: binDir(repoRoot), fakeNodes: 1, kcmDisable: ['ttl', 'nodelifecycle'] });
    kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests/crd')]);
    kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    const kube = makeKube({ kubeconfig: cluster.kubeconfig });
    const client = makeRest(kube.kc);
    await client.create(resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await forEachLimit(Array.from({ length: NODEIMAGES }, (_, i) => niName(i)), 16, (name) => client.create<NodeImage>(resources.nodeImages, {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name, labels: { [FakeNodeImageLabel]: 'true', [LABEL]: 'yes' } }, spec: {} }));
    const benchLog = pino({ level: 'warn' }, destination({ dest: join(dir, 'logs', 'bench-storm.log'), sync: false }));
    const benchInformers = informerFactory({ rest: client, signal: benchStop.signal, log: benchLog });
    const nodeImages = benchInformers.cache<NodeImage>(resources.nodeImages);
    await benchInformers.synced();
    say(`${NODEIMAGES} NodeImages created`);
    const on = await phase(cluster, client, nodeImages, true);
    const off = await phase(cluster, client, nodeImages, false);
    const line = (what: string, f: PhaseFigures) => `| ${what} | ${f.reconciles} | ${f.seconds.toFixed(1)} | ${f.perSecond.toFixed(1)} | ${f.ops} (${f.skipped} skipped) |`;
    process.stdout.write(`\n${JOBS} ImagePullJobs (tags of one image) × ${NODEIMAGES} NodeImages, driver ${RATE} writes/s ` +
      `(4/5 daemon reports, 1/5 TTL expiries), load average at the end ${load()}\n\n` +
      '| phase | reconciles | seconds | reconciles/s | driver ops |\n|---|---|---|---|---|\n' +
      `${line('tag-level filter on (v1.9, default)', on)}\n${line('tag-level filter off (pre-#2483)', off)}\n\n` +
      `ratio off/on: ${(off.perSecond / Math.max(on.perSecond, 1e-9)).toFixed(2)}×\n`);
  } finally {
    benchStop.abort();
    await cluster?.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
