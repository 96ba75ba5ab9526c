// Per-pod sidecar unavailability during an in-place SidecarSet image upgrade on the real node (kubelet + containerd),
// with and without pre-pull (`kruise-ts.io/sidecarset-prepull`), the new image served through a proxy that sends the
// registry's answers at a fixed rate (throttle-proxy.ts, loopback only). Two rates, so the figures show whether the
// not-ready window grows with the pull time. Runs inside the harness's cluster, under the e2e lock:
//   flock /tmp/kruise-e2e.lock bash e2e/cluster.sh run -- node --import tsx bench/sidecarset/unavailability.ts \
//     [--pods 4] [--size-mib 8] [--rates 4,1] [--limit-minutes 5]
// A pod's window: the old sidecar container's finishedAt to the new one's startedAt, from the runtime (CRI, ns); the
// pod status's lastState.terminated.finishedAt → state.running.startedAt (1 s resolution) is printed next to it. All pods of a SidecarSet restart in one batch (maxUnavailable 100%), as pods on separate nodes
// would each wait for their own pull. Prints figures; asserts nothing. Stops by itself after --limit-minutes.
import { createHash } from 'node:crypto';
import { KubeConfig, Watch } from '@kubernetes/client-node';
import { eventually, getJson, kubectl, kubectlOk, stack, untilInjected } from '../../e2e/harness/kube.js';
import { buildTestImage, KubeletCri, pushImage, trustRegistry } from '../../e2e/harness/runtime/index.js';
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

interface Window { pod: string; ms: number; apiS: number }
interface Scenario { rate: number; mode: 'without' | 'with'; windows: Window[]; rolloutMs: number; bytes: number }
const results: Scenario[] = [];

const median = (xs: number[]) => { const a = [...xs].sort((x, y) => x - y); const m = a.length >> 1; return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2; };
function printFigures(): void {
  process.stdout.write(`\n${PODS} pods on the real node, new sidecar image ≈${SIZE_MIB} MiB (bytes through the proxy below), registry slowed to a fixed rate\n\n`);
  process.stdout.write('| rate | pre-pull | per-pod sidecar outage, CRI finishedAt→startedAt (ms) | same, pod status (s) | median (ms) | edit → all Ready (ms) | MiB through the proxy |\n|---|---|---|---|---|---|---|\n');
  for (const r of results) {
    process.stdout.write(`| ${r.rate} MiB/s | ${r.mode} | ${r.windows.map((w) => w.ms).join(', ')} | ${r.windows.map((w) => w.apiS).join(', ')} | ${median(r.windows.map((w) => w.ms))} | ${r.rolloutMs} | ${(r.bytes / MiB).toFixed(1)} |\n`);
  }
  process.stdout.write('\n');
  for (const rate of RATES) {
    const [a, b] = (['without', 'with'] as const).map((m) => results.find((r) => r.rate === rate && r.mode === m));
    if (a && b) process.stdout.write(`ratio at ${rate} MiB/s: median without / with pre-pull = ${(median(a.windows.map((w) => w.ms)) / median(b.windows.map((w) => w.ms))).toFixed(1)}\n`);
  }
  const [fast, slow] = [Math.max(...RATES), Math.min(...RATES)];
  for (const m of ['without', 'with'] as const) {
    const f = results.find((r) => r.rate === fast && r.mode === m);
    const sl = results.find((r) => r.rate === slow && r.mode === m);
    if (f && sl && fast !== slow) process.stdout.write(`growth ${m} pre-pull: median at ${slow} MiB/s / median at ${fast} MiB/s = ${(median(sl.windows.map((w) => w.ms)) / median(f.windows.map((w) => w.ms))).toFixed(2)}\n`);
  }
}

interface PodObj {
  metadata: { name: string; uid: string };
  status?: { containerStatuses?: { name: string; ready: boolean; image: string; state?: { running?: { startedAt?: string } }; lastState?: { terminated?: { finishedAt?: string } } }[] };
}

/** Resolves with the pods labelled app=`app` once every one runs its sidecar ready on `image` (watched, not polled). */
async function allReadyOn(app: string, image: string, edit: () => void): Promise<{ pods: PodObj[]; rolloutMs: number }> {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  const latest = new Map<string, PodObj>();
  let done: () => void = () => {};
  const finished = new Promise<void>((r) => { done = r; });
  const onNew = (p: PodObj) => p.status?.containerStatuses?.some((c) => c.name === 'sidecar' && c.ready && c.image === image);
  const req = await new Watch(kc).watch(`/api/v1/namespaces/${NS}/pods`, { labelSelector: `app=${app}` }, (_type, obj: PodObj) => {
    latest.set(obj.metadata.name, obj);
    if ([...latest.values()].filter(onNew).length === PODS) done();
  }, () => {});
  const editedAt = Date.now();
  edit();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([finished, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${app}: not all pods back within 180 s`)), 180_000); })]);
  } finally {
    clearTimeout(timer);
    (req as { abort?: () => void }).abort?.();
  }
  return { pods: [...latest.values()], rolloutMs: Date.now() - editedAt };
}

/**
 * Each pod's sidecar outage from the runtime's own records (CRI, nanoseconds): the old container's finishedAt to the
 * new one's startedAt. The kubelet writes no pod status between the kill and the start (its sync blocks on the pull),
 * so the API's container status only shows the two ends, lastState.terminated.finishedAt and state.running.startedAt,
 * at 1 s resolution (printed next to it).
 */
async function windows(pods: PodObj[]): Promise<Window[]> {
  const cri = new KubeletCri(node.containerd!.socket, '/nonexistent');
  try {
    const { containers } = await cri.call<{ containers: { id: string; metadata: { attempt: number }; labels: Record<string, string> }[] }>('ListContainers',
      { filter: { labelSelector: { 'io.kubernetes.pod.namespace': NS, 'io.kubernetes.container.name': 'sidecar' } } });
    const out: Window[] = [];
    for (const p of pods) {
      const mine = containers.filter((c) => c.labels['io.kubernetes.pod.uid'] === p.metadata.uid).sort((a, b) => a.metadata.attempt - b.metadata.attempt);
      const [old, cur] = [mine.at(-2), mine.at(-1)];
      if (!old || !cur) continue;
      const st = async (id: string) => (await cri.call<{ status: { startedAt: string; finishedAt: string } }>('ContainerStatus', { containerId: id })).status;
      const [o, n] = [await st(old.id), await st(cur.id)];
      const c = p.status?.containerStatuses?.find((x) => x.name === 'sidecar');
      const apiS = (Date.parse(c?.state?.running?.startedAt ?? '') - Date.parse(c?.lastState?.terminated?.finishedAt ?? '')) / 1000;
      out.push({ pod: p.metadata.name, ms: Math.round(Number((BigInt(n.startedAt) - BigInt(o.finishedAt)) / 1000n) / 1000), apiS });
    }
    return out.sort((a, b) => a.pod.localeCompare(b.pod));
  } finally {
    cri.close();
  }
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
  const { pods, rolloutMs } = await allReadyOn(app, image, () => kubectlOk(['patch', 'sidecarset', app, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/containers/0/image', value: image }])]));
  const r: Scenario = { rate, mode, windows: await windows(pods), rolloutMs, bytes: sent() - before };
  results.push(r);
  say(`${rate} MiB/s, ${mode} pre-pull: windows ${r.windows.map((w) => w.ms).join(', ')} ms (median ${median(r.windows.map((w) => w.ms))}); edit → all Ready ${rolloutMs} ms`);
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
