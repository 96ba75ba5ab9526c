// `npm run bench:daemon`: 20 distinct images pulled concurrently through the real daemon (NodeImage spec on a real
// kube-apiserver → daemon → CRI PullImage) versus through containerd's own `ctr`, on the same loopback registry and
// containerd, alternating which goes first; plus the daemon's resident memory idle and while pulling, and what the
// idle memory is made of. Starts and stops everything itself (registry, containerd, etcd, kube-apiserver, …),
// loopback only. The daemon runs as deployed (the node command line of manifests/base/daemon.yaml, on the esbuild
// bundle) and as the bare bundle. Prints figures, asserts nothing. BENCH_DAEMON_ROUNDS overrides the rounds (2).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectCri } from '../../daemon/cri/grpc-runtime.js';
import { makeKube } from '../../shared/kube/client.js';
import { seededRandom } from '../../shared/testing/random.js';
import { binDir, kubectl, startCluster } from '../../e2e/harness/cluster/cluster.js';
import { ensureNode, REPO_ROOT, startDaemon, type NodeDaemon } from '../../e2e/harness/daemon.js';
import { startRuntimeEnv } from '../../e2e/harness/runtime/index.js';
import { measureCrrLatency, type BenchContext } from './crr-figure.js';
import { buildDaemonBundle, deployedNodeFlags } from './deployed.js';
import { emptyRuntime, patchImages, pullWithCtr, pullWithDaemon, rssMiB, sampleRss } from './pulls.js';

const IMAGES = 20;
const ROUNDS = Number(process.env.BENCH_DAEMON_ROUNDS ?? 2);
/** Incompressible-ish payload per image, on top of the ~1 MB busybox layer, so every image is its own bytes. */
const PAYLOAD_BYTES = 2 * 1024 * 1024;
const NODE = 'kts-bench-node';
const say = (s: string) => process.stderr.write(`[bench:daemon] ${s}\n`);

function payload(random: () => number, bytes: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bytes; i++) out += alphabet[Math.floor(random() * 64)];
  return out;
}

interface Variant {
  label: string;
  startupMs: number;
  idle: number;
  breakdown: string;
  ctrMs: number[];
  daemonMs: number[];
  peaks: number[];
  idleAfter: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function idleRss(pid: number, samples = 5): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < samples; i++) {
    xs.push(rssMiB(pid));
    await sleep(1_000);
  }
  return median(xs);
}

const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)}`;

/** Where the idle RSS goes: anonymous vs file-backed pages (/proc), and the V8 heap and external memory (/metrics). */
async function memoryBreakdown(daemon: NodeDaemon): Promise<string> {
  const status = readFileSync(`/proc/${daemon.daemon.pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  const metrics = await daemon.metrics();
  const m = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  const space = (s: string) => Number(new RegExp(`^nodejs_heap_space_size_used_bytes\\{space="${s}"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  return `RSS anon ${MiB(kb('RssAnon'))} + file ${MiB(kb('RssFile'))} (node binary and libraries) MiB; V8 heap used ${MiB(m('nodejs_heap_size_used_bytes'))} of ${MiB(m('nodejs_heap_size_total_bytes'))} MiB ` +
    `(old ${MiB(space('old'))}, code ${MiB(space('code'))}, new ${MiB(space('new'))}), external ${MiB(m('nodejs_external_memory_bytes'))} MiB`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync('/tmp/kts-bench-daemon-');
  const cleanups: Array<() => Promise<unknown>> = [() => Promise.resolve(rmSync(dir, { recursive: true, force: true }))];
  try {
    say('starting registry + containerd');
    const env = await startRuntimeEnv();
    cleanups.push(() => env.stop());
    say(`building and pushing ${IMAGES} distinct images (cached after the first run)`);
    const random = seededRandom(20260301);
    const refs: string[] = [];
    for (let i = 0; i < IMAGES; i++) refs.push(await env.pushTestImage({ name: `bench/pull-${i}`, tag: 'v1', files: { '/payload': payload(random, PAYLOAD_BYTES) } }));

    say('starting the control plane (etcd, kube-apiserver, …)');
    const cluster = await startCluster({ dir: join(dir, 'cluster'), bin: binDir(REPO_ROOT) });
    cleanups.push(() => cluster.stop());
    const kc = cluster.kubeconfig;
    kubectl(kc, ['apply', '-k', join(REPO_ROOT, 'manifests/crd')]);
    for (const f of ['namespace.yaml', 'rbac-daemon.yaml']) kubectl(kc, ['apply', '-f', join(REPO_ROOT, 'manifests/base', f)]);
    kubectl(kc, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    ensureNode(kc, NODE);
    kubectl(kc, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: NODE }, spec: {} }));

    const kube = makeKube({ kubeconfig: kc });
    const cri = connectCri({ endpoint: env.containerd.socket });
    cleanups.push(async () => cri.close());
    // One throwaway pull so neither side pays for containerd's first registry contact.
    await pullWithCtr(env.containerd.socket, [`${env.registry.host}/pause:3.10`]);
    say('bundling the daemon (as npm run build:daemon)');
    const bundle = await buildDaemonBundle();

    const variants: Variant[] = [];
    let version = 0;
    let daemon: NodeDaemon | undefined;
    cleanups.push(async () => daemon?.stop());
    const deployed = deployedNodeFlags();
    const builds: Array<{ label: string; bundle?: string; nodeArgs?: string[] }> = [
      { label: `as deployed: node ${[...deployed, 'dist/daemon/main.mjs'].join(' ')}`, bundle, nodeArgs: deployed },
      { label: 'bundle, no node flags', bundle },
    ];
    for (const { label, bundle, nodeArgs } of builds) {
      say(`starting the daemon: ${label}`);
      await daemon?.stop();
      const t0 = performance.now();
      daemon = await startDaemon({ kubeconfig: kc, nodeName: NODE, criEndpoint: env.containerd.socket, logDir: dir, bundle, nodeArgs });
      const startupMs = performance.now() - t0;
      const pid = daemon.daemon.pid;
      await sleep(10_000);
      const v: Variant = { label, startupMs, idle: await idleRss(pid), breakdown: await memoryBreakdown(daemon), ctrMs: [], daemonMs: [], peaks: [], idleAfter: 0 };
      const viaCtr = async () => {
        await emptyRuntime(env.containerd.socket);
        v.ctrMs.push(await pullWithCtr(env.containerd.socket, refs));
      };
      const viaDaemon = async () => {
        await emptyRuntime(env.containerd.socket);
        const stop = sampleRss(pid);
        v.daemonMs.push(await pullWithDaemon(kube.custom, NODE, cri.images, refs, ++version));
        v.peaks.push(stop());
        // Forget the images in the spec too, so the next daemon round starts pulls afresh.
        await patchImages(kube.custom, NODE, Object.fromEntries(Object.keys((await nodeImageSpec(kube.custom)) ?? {}).map((k) => [k, null])));
      };
      for (let r = 0; r < ROUNDS; r++) {
        say(`round ${r + 1}/${ROUNDS}`);
        if (r % 2 === 0) { await viaCtr(); await viaDaemon(); } else { await viaDaemon(); await viaCtr(); }
      }
      await sleep(5_000);
      v.idleAfter = await idleRss(pid);
      variants.push(v);
    }

    const bare = execFileSync(process.execPath, [...deployed, '-e', 'setTimeout(() => process.stdout.write(require("fs").readFileSync("/proc/self/status", "utf8")), 1500)'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const bareNode = Number(/^VmRSS:\s+(\d+) kB$/m.exec(bare)?.[1]) / 1024;
    const ctx: BenchContext = { kubeconfig: kc, kube, env, daemon: daemon!, nodeName: NODE, dir };
    const crr = await measureCrrLatency(ctx);

    const allCtr = variants.flatMap((v) => v.ctrMs);
    const allDaemon = variants.flatMap((v) => v.daemonMs);
    const lines = [
      `kruise-daemon benchmark: ${IMAGES} distinct images (~${(PAYLOAD_BYTES / 1024 / 1024 + 1).toFixed(0)} MB each) pulled concurrently, loopback registry, containerd ${env.containerd.version.runtimeVersion}, ${cpus().length} CPUs (load ${loadavg()[0]!.toFixed(1)})`,
      '',
      '| daemon build | round | ctr images pull (ms) | daemon via NodeImage (ms) | daemon peak RSS while pulling (MiB) |',
      '|---|---|---|---|---|',
      ...variants.flatMap((v) => v.ctrMs.map((c, i) => `| ${v.label} | ${i + 1} | ${c.toFixed(0)} | ${v.daemonMs[i]!.toFixed(0)} | ${v.peaks[i]!.toFixed(1)} |`)),
      '',
      `pull time ratio daemon/ctr (means over ${allDaemon.length} rounds each): ${(mean(allDaemon) / mean(allCtr)).toFixed(2)} (target ≤ 1.1)`,
      ...variants.map((v) => `${v.label}: pull time ratio daemon/ctr ${(mean(v.daemonMs) / mean(v.ctrMs)).toFixed(2)} over ${v.daemonMs.length} round(s)`),
      ...variants.map((v) => `daemon RSS, ${v.label}: idle ${v.idle.toFixed(1)} MiB (target ≤ 60), peak while pulling ${Math.max(...v.peaks).toFixed(1)} MiB, idle after the pulls ${v.idleAfter.toFixed(1)} MiB; start to /healthz ok ${(v.startupMs / 1000).toFixed(1)} s\n  idle: ${v.breakdown}`),
      `baseline: a bare node with the deployed flags idles at ${bareNode.toFixed(1)} MiB here; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
      ...(crr ? crr.map((f) => `${f.label}: ${f.value}`) : ['CRR latency: npm run bench:crr (it needs the kruise-ts webhook and controller, which this bench does not start)']),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const c of cleanups.reverse()) await c().catch((err: unknown) => say(`cleanup: ${(err as Error).message}`));
  }
}

async function nodeImageSpec(custom: ReturnType<typeof makeKube>['custom']): Promise<Record<string, unknown> | undefined> {
  const ni = (await custom.getClusterCustomObject({ group: 'apps.kruise.io', version: 'v1alpha1', plural: 'nodeimages', name: NODE })) as { spec?: { images?: Record<string, unknown> } };
  return ni.spec?.images;
}

await main();
