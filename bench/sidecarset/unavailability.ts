// Per-pod sidecar unavailability during an in-place SidecarSet image upgrade on the real node (kubelet + containerd),
// with and without pre-pull (`kruise-ts.io/sidecarset-prepull`), the new image served through a proxy that sends the
// registry's answers at a fixed rate (throttle-proxy.ts, loopback only). Two rates, so the figures show whether the
// not-ready window grows with the pull time. Runs inside the harness's cluster, under the e2e lock:
//   flock /tmp/kruise-e2e.lock bash e2e/cluster.sh run -- node --import tsx bench/sidecarset/unavailability.ts \
//     [--pods 4] [--size-mib 8] [--rates 4,1] [--limit-minutes 5]
// A pod's window: from the first watch event after the edit with the sidecar not ready, to the first with it ready on
// the new image (ms, as the watch delivers them); the container status's finishedAt → startedAt (1 s resolution) is
// printed next to it. All pods of a SidecarSet restart in one batch (maxUnavailable 100%), as pods on separate nodes
// would each wait for their own pull. Prints figures; asserts nothing. Stops by itself after --limit-minutes.
import { createHash } from 'node:crypto';
import { KubeConfig, Watch } from '@kubernetes/client-node';
import { eventually, getJson, kubectl, kubectlOk, stack, untilInjected } from '../../e2e/harness/kube.js';
import { buildTestImage, pushImage, trustRegistry } from '../../e2e/harness/runtime/index.js';
import { startThrottleProxy } from './throttle-proxy.js';

const arg = (name: string, def: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] ?? def : def; };
const num = (name: string, def: number) => {
  const v = Number(arg(name, String(def)));
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} wants a positive number`);
  return v;
};
const PODS = num('pods', 4);
const SIZE_MIB = num('size-mib', 8);
const RATES = arg('rates', '4,1').split(',').map(Number);
if (RATES.some((r) => !Number.isFinite(r) || r <= 0)) throw new Error('--rates wants positive MiB/s values, e.g. 4,1');
const LIMIT_MS = num('limit-minutes', 5) * 60_000;
const NS = 'bench-unavail';
const MiB = 1 << 20;
const t0 = Date.now();
const say = (s: string) => process.stdout.write(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${s}\n`);

const s = stack();
if (typeof s === 'string' || !s.realNode?.registry || !s.realNode.containerd) throw new Error(typeof s === 'string' ? s : 'needs the real node (KRUISE_TS_REAL_NODE=1)');
const node = s.realNode;
const limit = setTimeout(() => { say(`stopping: --limit-minutes reached`); printFigures(); process.exit(2); }, LIMIT_MS);
limit.unref();

/** Incompressible but reproducible bytes (the image cache keys on content), as base64 text of `size` characters. */
function payload(seed: string, size: number): string {
  const parts: Buffer[] = [];
  let n = 0;
  for (let i = 0; n < (size * 3) / 4; i++) {
    const b = createHash('sha512').update(`${seed}/${i}`).digest();
    parts.push(b);
    n += b.length;
  }
  return Buffer.concat(parts).toString('base64').slice(0, size);
}

interface Window { pod: string; watchMs: number; statusS: number }
interface Scenario { rate: number; mode: 'without' | 'with'; windows: Window[]; rolloutMs: number; bytes: number }
const results: Scenario[] = [];

const median = (xs: number[]) => { const a = [...xs].sort((x, y) => x - y); const m = a.length >> 1; return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2; };
function printFigures(): void {
  process.stdout.write(`\n${PODS} pods on the real node, new sidecar image ≈${SIZE_MIB} MiB (bytes through the proxy below), registry slowed to a fixed rate\n\n`);
  process.stdout.write('| rate | pre-pull | per-pod not-ready window, watch (ms) | finishedAt→startedAt (s) | median (ms) | edit → all Ready (ms) | MiB through the proxy |\n|---|---|---|---|---|---|---|\n');
  for (const r of results) {
    process.stdout.write(`| ${r.rate} MiB/s | ${r.mode} | ${r.windows.map((w) => w.watchMs).join(', ')} | ${r.windows.map((w) => w.statusS).join(', ')} | ${median(r.windows.map((w) => w.watchMs))} | ${r.rolloutMs} | ${(r.bytes / MiB).toFixed(1)} |\n`);
  }
  process.stdout.write('\n');
  for (const rate of RATES) {
    const [a, b] = (['without', 'with'] as const).map((m) => results.find((r) => r.rate === rate && r.mode === m));
    if (a && b) process.stdout.write(`ratio at ${rate} MiB/s: median without / with pre-pull = ${(median(a.windows.map((w) => w.watchMs)) / median(b.windows.map((w) => w.watchMs))).toFixed(1)}\n`);
  }
  const [fast, slow] = [Math.max(...RATES), Math.min(...RATES)];
  for (const m of ['without', 'with'] as const) {
    const f = results.find((r) => r.rate === fast && r.mode === m);
    const sl = results.find((r) => r.rate === slow && r.mode === m);
    if (f && sl && fast !== slow) process.stdout.write(`growth ${m} pre-pull: median at ${slow} MiB/s / median at ${fast} MiB/s = ${(median(sl.windows.map((w) => w.watchMs)) / median(f.windows.map((w) => w.watchMs))).toFixed(2)}\n`);
  }
}

interface PodObj {
  metadata: { name: string };
  status?: { containerStatuses?: { name: string; ready: boolean; image: string; state?: { running?: { startedAt?: string } }; lastState?: { terminated?: { finishedAt?: string } } }[] };
}

/** Watches the pods labelled app=`app`; resolves each pod's window once all are ready on `image`. */
async function measure(app: string, image: string, edit: () => void): Promise<{ windows: Window[]; rolloutMs: number }> {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  const down = new Map<string, number>();
  const windows = new Map<string, Window>();
  let editedAt = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((r) => { done = r; });
  const req = await new Watch(kc).watch(`/api/v1/namespaces/${NS}/pods`, { labelSelector: `app=${app}` }, (_type, obj: PodObj) => {
    if (!editedAt) return;
    const at = Date.now();
    const name = obj.metadata.name;
    const c = obj.status?.containerStatuses?.find((x) => x.name === 'sidecar');
    if (!c || windows.has(name)) return;
    if (!c.ready && !down.has(name)) down.set(name, at);
    if (c.ready && c.image === image) {
      const fin = Date.parse(c.lastState?.terminated?.finishedAt ?? '');
      const start = Date.parse(c.state?.running?.startedAt ?? '');
      // -1: the watch never showed it not ready (the status column still has the container's own times).
      const from = down.get(name);
      windows.set(name, { pod: name, watchMs: from === undefined ? -1 : at - from, statusS: (start - fin) / 1000 });
      if (windows.size === PODS) done();
    }
  }, () => {});
  editedAt = Date.now();
  edit();
  await Promise.race([finished, new Promise((_, reject) => setTimeout(() => reject(new Error(`${app}: not all pods back within 180 s`)), 180_000).unref())]);
  const rolloutMs = Date.now() - editedAt;
  (req as { abort?: () => void }).abort?.();
  return { windows: [...windows.values()].sort((a, b) => a.pod.localeCompare(b.pod)), rolloutMs };
}

async function scenario(proxyHost: string, setRate: (r: number) => void, sent: () => number, rate: number, mode: 'without' | 'with', base: string): Promise<void> {
  const app = `u-${String(rate).replace('.', 'p')}-${mode}`;
  const built = await buildTestImage({ name: 'bench/sidecar', tag: app, allApplets: true, cmd: ['sh'], files: { '/payload': payload(app, SIZE_MIB * MiB) } });
  await pushImage(built, node.registry!.host);
  const image = `${proxyHost}/bench/sidecar:${app}`;
  kubectlOk(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name: app, ...(mode === 'with' && { annotations: { 'kruise-ts.io/sidecarset-prepull': 'true' } }) },
    spec: { namespace: NS, selector: { matchLabels: { app } }, updateStrategy: { maxUnavailable: '100%' },
      containers: [{ name: 'sidecar', image: base, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'] }] },
  }));
  await untilInjected(NS, { app }, 'sidecar', base);
  for (let i = 0; i < PODS; i++) {
    kubectlOk(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: `${app}-${i}`, namespace: NS, labels: { app } },
      spec: { nodeName: node.name, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: 'busybox', imagePullPolicy: 'IfNotPresent', command: ['sleep', '999d'] }] },
    }));
  }
  await eventually(`${app}: ${PODS} pods Ready`, () => getJson<{ items: PodObj[] }>(['pods', '-n', NS, '-l', `app=${app}`]).items
    .filter((p) => p.status?.containerStatuses?.every((c) => c.ready)).length === PODS, 120_000);
  setRate(rate * MiB);
  const before = sent();
  const { windows, rolloutMs } = await measure(app, image, () => kubectlOk(['patch', 'sidecarset', app, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/containers/0/image', value: image }])]));
  const r: Scenario = { rate, mode, windows, rolloutMs, bytes: sent() - before };
  results.push(r);
  say(`${rate} MiB/s, ${mode} pre-pull: windows ${windows.map((w) => w.watchMs).join(', ')} ms (median ${median(windows.map((w) => w.watchMs))}); edit → all Ready ${rolloutMs} ms`);
  kubectl(['delete', 'sidecarset', app, '--wait=false']);
  kubectl(['delete', 'pods', '-n', NS, '-l', `app=${app}`, '--wait=false', '--grace-period=1']);
}

async function main(): Promise<void> {
  // The base image goes through the proxy too (unthrottled while the pods start), so every sidecar ref names it.
  const proxy = await startThrottleProxy({ upstream: node.registry!.host, bytesPerSec: 1024 * MiB, lifetimeMs: LIMIT_MS + 60_000 });
  try {
    trustRegistry(node.containerd!.dir, proxy.host);
    await pushImage(await buildTestImage({ name: 'bench/sidecar', tag: 'base', allApplets: true, cmd: ['sh'] }), node.registry!.host);
    const base = `${proxy.host}/bench/sidecar:base`;
    kubectlOk(['create', 'namespace', NS]);
    await eventually('the daemon reports the NodeImage', () => kubectl(['get', 'nodeimage', node.name]).code === 0, 120_000);
    for (const rate of RATES) {
      for (const mode of ['without', 'with'] as const) {
        proxy.setRate(1024 * MiB);
        await scenario(proxy.host, proxy.setRate, proxy.sent, rate, mode, base);
      }
    }
  } finally {
    await proxy.close();
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  }
  printFigures();
}

await main();
