// `npm run bench:admission:cores [-- --rounds N] [-- --base <rev>]`: saturation throughput of the kruise-ts /mutate-pod
// server with its process pinned to 1 CPU and to 2 CPUs (taskset on the server), before and after the admission worker
// pool, in the same run, alternating. "Before" is the benchmark's own kruise server from the checkout at <rev>
// (default 53b4537, the last commit with admission on the main event loop), extracted with `git archive` into a cache
// directory outside the repo and bundled as this checkout's is (esbuild, plain node).
//
// What it measures, per variant and core count: req/s under a closed loop (64 keep-alive connections), and the
// server's CPU time per request by thread (thread-cpu.ts: main thread, admission workers, the rest). The load
// generator is this process with raw-load.ts (about half the CPU per request of Node's HTTPS client), pinned to the
// CPUs the server does not have. On a 2-CPU machine the 2-core server shares its CPUs with the generator, so its
// measured req/s is capped by the machine, not by the server; the bench then also prints the server's capacity on
// 2 cores from its CPU per request, min(2 / CPU-per-request, 1 / main-thread-CPU-per-request): the most a server
// whose main thread is one event loop can answer when nothing else needs the CPUs, and the ratio of that to the
// 1-core capacity (the same formula on the 1-core rows). Per core, after/before compares the 1-core rows (server alone
// on CPU 0, generator on CPU 1), both as req/s and as CPU per request; where other processes share the machine, CPU per
// request is the steadier figure (a busy machine mostly takes CPU from the server, less so adds to its cost per request). Bounded by
// request count and time; figures are printed, nothing is asserted.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { availableParallelism, homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { buildEntry } from '../../scripts/bundles.js';
import { podReview } from './fixtures.js';
import { rawClosedLoop, type RawTarget } from './raw-load.js';
import { startProcess, startServer, type Server } from './servers.js';
import { minus, threadCpuSeconds, total, type ThreadCpu } from './thread-cpu.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : dflt);
const rounds = Math.max(1, Number(opt('--rounds', '2')) || 2);
const baseRev = opt('--base', '53b4537');
const CLOSED = { connections: 64, count: 20_000, maxSeconds: 20 };
// Long enough for every isolate to have compiled its hot code (the pool's workers each compile their own: with a
// short warm-up, V8's background compiler threads still cost the pool ~30 µs per request in the measured phase).
const WARMUP = { connections: 64, count: 25_000, maxSeconds: 30 };
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
// The generator on the CPUs the server does not use: 1.. for the 1-core server; for the 2-core one, 2.. when the
// machine has them, else it shares CPUs 0-1 with the server.
const genCpusFor = (cores: number) => (cores === 1 ? `1-${cpus - 1}` : cpus > 2 ? `2-${cpus - 1}` : `0-${cpus - 1}`);
const pinGenerator = (list: string) => {
  // taskset -a walks the threads; one that ends meanwhile fails it, so it is tried again.
  for (let i = 0; ; i++) {
    try { execFileSync('taskset', ['-a', '-p', '-c', list, String(process.pid)], { stdio: 'ignore' }); return; } catch (err) { if (i >= 3) throw err; }
  }
};

const baseBundle = await baseServerBundle(baseRev);
type Variant = 'before' | 'after';
const start = async (variant: Variant, cpu: string): Promise<Server> =>
  variant === 'after' ? startServer('kruise', tls, cpu) : { mode: 'kruise', ...(await startProcess([process.execPath, baseBundle], tls, cpu)) };

interface Row { variant: Variant; cores: number; rps: number; cpu: ThreadCpu; genCpuSeconds: number; requests: number; seconds: number; failures: number }
const rows: Row[] = [];
const loadAtStart = loadavg()[0]!;
for (let round = 0; round < rounds; round++) {
  for (const setup of SETUPS) {
    pinGenerator(genCpusFor(setup.cores));
    for (const variant of ['before', 'after'] as const) {
      const s = await start(variant, setup.cpu);
      try {
        const target: RawTarget = { port: s.port, ca: ca.cert, path: '/mutate-pod', bodies };
        await rawClosedLoop(target, WARMUP);
        const cpu0 = threadCpuSeconds(s.child.pid!);
        const gen0 = process.cpuUsage();
        const r = await rawClosedLoop(target, CLOSED);
        const gen = process.cpuUsage(gen0);
        rows.push({ variant, cores: setup.cores, rps: r.rps, cpu: minus(threadCpuSeconds(s.child.pid!), cpu0), genCpuSeconds: (gen.user + gen.system) / 1e6, requests: r.requests, seconds: r.seconds, failures: r.failures });
      } finally {
        s.child.kill('SIGTERM');
      }
    }
  }
}

const us = (seconds: number, r: Row) => (seconds * 1e6) / Math.max(1, r.requests);
/** The most the server can answer on `cores` CPUs from its CPU per request: its threads, and its one main thread. */
const capacity = (r: Row, cores: number) => Math.min(cores / (total(r.cpu) / r.requests), 1 / (r.cpu.main / r.requests));
console.log(`admission benchmark, 1 vs 2 cores: POST /mutate-pod, HTTPS keep-alive, 127.0.0.1, Node ${process.version}, ${cpus} CPUs, load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
console.log(`  before: ${baseRev} (admission on the main event loop); after: this checkout (admission worker pool, one worker per CPU of the server's affinity, at least 2, plus a spare)`);
console.log(`  closed loop, ${CLOSED.connections} connections (raw-load.ts), ${CLOSED.count} requests after ${WARMUP.count} warm-up, ${rounds} round(s), means shown; server pinned with taskset -c 0 / -c 0,1`);
console.log(`  generator pinned to CPUs ${genCpusFor(1)} for the 1-core rows, ${genCpusFor(2)} for the 2-core rows${cpus > 2 ? '' : ' (shared with the server: the 2-core req/s is capped by the machine; see capacity)'}`);
console.log('  server CPU: the server process\'s CPU time over the phase, in cores; per request: all its threads, its main thread, its admission workers');
console.log('  capacity: min(cores / CPU per request, 1 / main-thread CPU per request), the req/s the server reaches when the CPUs are its own');
console.log(`  ${'variant'.padEnd(8)} ${'cores'.padEnd(7)} ${'req/s'.padStart(7)} ${'server CPU'.padStart(11)} ${'CPU/req'.padStart(9)} ${'main/req'.padStart(9)} ${'workers'.padStart(9)} ${'capacity'.padStart(9)} ${'generator'.padStart(10)}  failed`);
const pick = (v: Variant, cores: number) => rows.filter((r) => r.variant === v && r.cores === cores);
const mean = (v: Variant, cores: number, f: (r: Row) => number) => { const rs = pick(v, cores); return rs.reduce((a, r) => a + f(r), 0) / rs.length; };
for (const v of ['before', 'after'] as const) {
  for (const setup of SETUPS) {
    const m = (f: (r: Row) => number) => mean(v, setup.cores, f);
    const failed = pick(v, setup.cores).reduce((a, r) => a + r.failures, 0);
    console.log(`  ${v.padEnd(8)} ${setup.label.padEnd(7)} ${m((r) => r.rps).toFixed(0).padStart(7)} ${`${(100 * m((r) => total(r.cpu) / r.seconds)).toFixed(0)}% core`.padStart(11)} ${`${m((r) => us(total(r.cpu), r)).toFixed(0)} µs`.padStart(9)} ${`${m((r) => us(r.cpu.main, r)).toFixed(0)} µs`.padStart(9)} ${`${m((r) => us(r.cpu.workers, r)).toFixed(0)} µs`.padStart(9)} ${m((r) => capacity(r, setup.cores)).toFixed(0).padStart(9)} ${`${(100 * m((r) => r.genCpuSeconds / r.seconds)).toFixed(0)}% core`.padStart(10)}  ${failed}`);
  }
}
const rps = (v: Variant, c: number) => mean(v, c, (r) => r.rps);
const cpuPerReq = (v: Variant, c: number) => mean(v, c, (r) => us(total(r.cpu), r));
const cap = (v: Variant, c: number) => mean(v, c, (r) => capacity(r, c));
console.log(`  after/before per core (1 core): req/s ${(rps('after', 1) / rps('before', 1)).toFixed(2)}, CPU per request ${(cpuPerReq('before', 1) / cpuPerReq('after', 1)).toFixed(2)} (before's over after's; target ≥ 1.0)`);
console.log(`  2-core/1-core, measured req/s: before ${(rps('before', 2) / rps('before', 1)).toFixed(2)}x, after ${(rps('after', 2) / rps('after', 1)).toFixed(2)}x${cpus > 2 ? '' : ' (capped: the generator shares the 2 CPUs)'}`);
console.log(`  2-core/1-core capacity: before ${(cap('before', 2) / cap('before', 1)).toFixed(2)}x, after ${(cap('after', 2) / cap('after', 1)).toFixed(2)}x (target after ≥ 1.7x)`);
