// `npm run bench:manager-start [-- --rounds 3]`: the manager's two processes as the image runs them (the esbuild
// bundles, dist/{webhook,controller}/main.mjs) against the same from the TypeScript sources through tsx (dev), on
// one loopback cluster of its own (harness). Per process and round, alternating: spawn → /readyz 200 (the webhook:
// caches synced and serving certificate loaded; the controller, without leader election: caches synced), then RSS
// after IDLE_MS idle. Prints medians and ratios with the load average; asserts nothing. A first tsx run per app warms
// tsx's compile cache and is not counted.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BUNDLE_GROUPS, BUNDLES, buildBundles } from '../../scripts/bundles.js';
import { binDir, kubectl, startCluster } from '../../e2e/harness/cluster/cluster.js';
import { freePort, spawnDaemon } from '../../e2e/harness/runtime/process.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const i = process.argv.indexOf('--rounds');
const ROUNDS = i > 0 ? Number(process.argv[i + 1]) : 3;
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`--rounds wants a positive integer, got ${process.argv[i + 1]}`);
const IDLE_MS = 10_000;
const apps = ['webhook', 'controller'] as const;
type App = (typeof apps)[number];
type Mode = 'sources' | 'bundle';
const say = (s: string) => process.stderr.write(`[bench] ${s}\n`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function once(app: App, mode: Mode, kubeconfig: string, logDir: string): Promise<{ readyMs: number; rss: number }> {
  const [webhookPort, healthPort] = [await freePort(), await freePort()];
  const args = mode === 'bundle' ? [join(repoRoot, BUNDLES[app].out)] : ['--import', 'tsx', join(repoRoot, `${app}/main.ts`)];
  const env = {
    ...process.env, KUBECONFIG: kubeconfig, POD_NAMESPACE: 'kruise-system', BIND_ADDRESS: '127.0.0.1', HEALTH_PORT: String(healthPort),
    ...(app === 'webhook' ? { WEBHOOK_HOST: '127.0.0.1', WEBHOOK_PORT: String(webhookPort), WEBHOOK_CERT_WRITER: 'secret', WEBHOOK_DRAIN_SECONDS: '0' } : { LEADER_ELECT: 'false' }),
  };
  const t = performance.now();
  const d = spawnDaemon(`${app}-${mode}`, process.execPath, args, join(logDir, `${app}-${mode}.log`), env);
  try {
    for (;;) {
      if (d.child.exitCode !== null) throw new Error(`${app} (${mode}) exited ${d.child.exitCode}\n${d.tail(20)}`);
      if (performance.now() - t > 60_000) throw new Error(`${app} (${mode}) not ready after 60 s\n${d.tail(20)}`);
      const ok = await fetch(`http://127.0.0.1:${healthPort}/readyz`).then((r) => r.ok, () => false);
      if (ok) break;
      await sleep(10);
    }
    const readyMs = performance.now() - t;
    await sleep(IDLE_MS);
    return { readyMs, rss: rssMb(d.pid) };
  } finally {
    await d.stop();
  }
}

const dir = join(tmpdir(), `kruise-ts-bench-manager-start-${process.pid}`);
mkdirSync(dir, { recursive: true });
say(`building the bundles; node ${process.version}; load ${load()}`);
const built = await buildBundles(repoRoot, BUNDLE_GROUPS.manager!);
const cluster = await startCluster({ dir, bin: binDir(repoRoot) });
try {
  kubectl(cluster.kubeconfig, ['apply', '-k', join(repoRoot, 'manifests')]);
  kubectl(cluster.kubeconfig, ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
  for (const app of apps) await once(app, 'sources', cluster.kubeconfig, cluster.logDir);
  const results: Record<string, { readyMs: number[]; rss: number[] }> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const app of apps) {
      for (const mode of (r % 2 ? ['bundle', 'sources'] : ['sources', 'bundle']) as Mode[]) {
        const m = await once(app, mode, cluster.kubeconfig, cluster.logDir);
        const k = `${app} ${mode}`;
        (results[k] ??= { readyMs: [], rss: [] }).readyMs.push(m.readyMs);
        results[k].rss.push(m.rss);
        say(`round ${r + 1}: ${k}: ready ${m.readyMs.toFixed(0)} ms, RSS ${m.rss.toFixed(1)} MB (load ${load()})`);
      }
    }
  }
  process.stdout.write(`\nmanager processes, spawn → /readyz and RSS after ${IDLE_MS / 1000} s idle; median of ${ROUNDS}, load ${load()}\n`);
  for (const b of built) process.stdout.write(`  bundle ${b.name}: ${(b.bytes / 1e6).toFixed(2)} MB\n`);
  for (const app of apps) {
    const s = results[`${app} sources`]!;
    const b = results[`${app} bundle`]!;
    const [sr, br, sm, bm] = [median(s.readyMs), median(b.readyMs), median(s.rss), median(b.rss)];
    process.stdout.write(`  ${app}: ready ${sr.toFixed(0)} ms (tsx) vs ${br.toFixed(0)} ms (bundle), ${(br / sr).toFixed(2)}×; ` +
      `RSS ${sm.toFixed(1)} vs ${bm.toFixed(1)} MB, ${(bm / sm).toFixed(2)}×\n`);
  }
} finally {
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
