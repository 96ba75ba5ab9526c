// `npm run bench:admission:cores [-- --rounds N] [-- --base <rev>]`: saturation throughput of the kruise-ts /mutate-pod
// server with its process pinned to 1 CPU and to 2 CPUs (taskset on the server), before and after the admission worker
// pool, in the same run, alternating. "Before" is the benchmark's own kruise server from the checkout at <rev>
// (default 53b4537, the last commit with admission on the main event loop), extracted with `git archive` into a cache
// directory outside the repo and bundled as this checkout's is (esbuild, plain node). Prints req/s, req/s per core,
// CPU per request, the 2-core/1-core ratio of each, and after/before per core. The load generator is this process
// (Node's HTTPS client, a closed loop); it runs on the CPUs the server does not have when there are any, else it
// shares them and says so. Bounded by request count and time; figures are printed, nothing is asserted.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { availableParallelism, homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { buildEntry } from '../../scripts/bundles.js';
import { podReview } from './fixtures.js';
import { closedLoop, type Target } from './load.js';
import { serverCpuSeconds, startProcess, startServer, type Server } from './servers.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : dflt);
const rounds = Math.max(1, Number(opt('--rounds', '2')) || 2);
const baseRev = opt('--base', '53b4537');
const CLOSED = { concurrency: 64, count: 20_000, maxSeconds: 20 };
const WARMUP = { concurrency: 64, count: 5_000, maxSeconds: 15 };
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const cpus = availableParallelism();
if (cpus < 2) {
  console.log('bench:admission:cores needs at least 2 CPUs');
  process.exit(0);
}
execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });

/** The checkout at `rev`, extracted once into the cache (node_modules: this checkout's), and its server bundled. */
async function baseServerBundle(rev: string): Promise<string> {
  const sha = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', '--short=12', rev], { encoding: 'utf8' }).trim();
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kruise-ts-bench', `base-${sha}`);
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    execSync(`git -C ${JSON.stringify(REPO_ROOT)} archive ${sha} | tar -x -C ${JSON.stringify(dir)}`);
    symlinkSync(realpathSync(join(REPO_ROOT, 'node_modules')), join(dir, 'node_modules'));
  }
  if (existsSync(join(dir, 'webhook/pool/worker.ts'))) await buildEntry(dir, 'webhook/pool/worker.ts', join(dir, 'dist/bench/worker.mjs'));
  return buildEntry(dir, 'bench/admission/server-kruise.ts', join(dir, 'dist/bench/admission-server-kruise.mjs'));
}

const now = new Date();
const ca = generateCA(now);
const tls = generateServingCert(ca, 'localhost', now);
const bodies = Array.from({ length: 64 }, (_, i) => JSON.stringify(podReview(i)));
const SETUPS = [{ label: '1 core', cpu: '0', cores: 1 }, { label: '2 cores', cpu: '0,1', cores: 2 }] as const;
// The generator on the CPUs neither server setup uses, when the machine has any.
const genCpus = cpus > 2 ? `2-${cpus - 1}` : undefined;
if (genCpus) execFileSync('taskset', ['-a', '-p', '-c', genCpus, String(process.pid)], { stdio: 'ignore' });

const baseBundle = await baseServerBundle(baseRev);
type Variant = 'before' | 'after';
const start = async (variant: Variant, cpu: string): Promise<Server> =>
  variant === 'after' ? startServer('kruise', tls, cpu) : { mode: 'kruise', ...(await startProcess([process.execPath, baseBundle], tls, cpu)) };

interface Row { variant: Variant; cores: number; rps: number; cpuSeconds: number; genCpuSeconds: number; requests: number; seconds: number; failures: number }
const rows: Row[] = [];
const loadAtStart = loadavg()[0]!;
for (let round = 0; round < rounds; round++) {
  for (const setup of SETUPS) {
    for (const variant of ['before', 'after'] as const) {
      const s = await start(variant, setup.cpu);
      try {
        const target: Target = { port: s.port, ca: ca.cert, path: '/mutate-pod', bodies };
        await closedLoop(target, WARMUP);
        const cpu0 = await serverCpuSeconds(s);
        const gen0 = process.cpuUsage();
        const r = await closedLoop(target, CLOSED);
        const gen = process.cpuUsage(gen0);
        rows.push({ variant, cores: setup.cores, rps: r.rps, cpuSeconds: (await serverCpuSeconds(s)) - cpu0, genCpuSeconds: (gen.user + gen.system) / 1e6, requests: r.requests, seconds: r.seconds, failures: r.failures });
      } finally {
        s.child.kill('SIGTERM');
      }
    }
  }
}

const mean = (v: Variant, cores: number, f: (r: Row) => number) => {
  const rs = rows.filter((r) => r.variant === v && r.cores === cores);
  return rs.reduce((a, r) => a + f(r), 0) / rs.length;
};
console.log(`admission benchmark, 1 vs 2 cores: POST /mutate-pod, HTTPS keep-alive, 127.0.0.1, Node ${process.version}, ${cpus} CPUs, load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
console.log(`  before: ${baseRev} (admission on the main event loop); after: this checkout (admission worker pool, one worker per CPU of the server's affinity, at least 2)`);
console.log(`  closed loop, ${CLOSED.concurrency} concurrent, ${CLOSED.count} requests after ${WARMUP.count} warm-up, ${rounds} round(s), means shown; server pinned with taskset -c 0 / -c 0,1`);
console.log(genCpus ? `  load generator pinned to CPUs ${genCpus}` : '  load generator NOT pinned: with 2 CPUs it shares them with the server, so the 2-core rows are capped by it (its CPU: the generator column)');
console.log('  "server CPU" is the server process\'s CPU time over the phase (all its threads), in cores; a row whose server did not use its cores was capped by the machine or the generator, not by the server');
console.log(`  ${'variant'.padEnd(8)} ${'cores'.padEnd(7)} ${'req/s'.padStart(7)} ${'req/s/core'.padStart(11)} ${'server CPU'.padStart(11)} ${'CPU/req'.padStart(9)} ${'generator'.padStart(10)}  failed`);
for (const v of ['before', 'after'] as const) {
  for (const setup of SETUPS) {
    const rps = mean(v, setup.cores, (r) => r.rps);
    const busy = mean(v, setup.cores, (r) => r.cpuSeconds / r.seconds);
    const perReq = mean(v, setup.cores, (r) => (r.cpuSeconds * 1e6) / Math.max(1, r.requests));
    const gen = mean(v, setup.cores, (r) => r.genCpuSeconds / r.seconds);
    const failed = rows.filter((r) => r.variant === v && r.cores === setup.cores).reduce((a, r) => a + r.failures, 0);
    console.log(`  ${v.padEnd(8)} ${setup.label.padEnd(7)} ${rps.toFixed(0).padStart(7)} ${(rps / setup.cores).toFixed(0).padStart(11)} ${`${(100 * busy).toFixed(0)}% core`.padStart(11)} ${`${perReq.toFixed(0)} µs`.padStart(9)} ${`${(100 * gen).toFixed(0)}% core`.padStart(10)}  ${failed}`);
  }
}
const rps = (v: Variant, c: number) => mean(v, c, (r) => r.rps);
console.log(`  2-core/1-core throughput: before ${(rps('before', 2) / rps('before', 1)).toFixed(2)}x, after ${(rps('after', 2) / rps('after', 1)).toFixed(2)}x (target after ≥ 1.7x)`);
console.log(`  after/before per core: 1 core ${(rps('after', 1) / rps('before', 1)).toFixed(2)}, 2 cores ${(rps('after', 2) / rps('before', 2)).toFixed(2)} (target ≥ 1.0)`);
