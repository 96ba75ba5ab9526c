// `npm run bench:admission [-- --rounds N] [-- --profile] [-- --no-pin] [-- --sources]`: HTTPS load on 127.0.0.1
// against /mutate-pod of the real app (production handler table and logger, 100 SidecarSets cached, 10 matching the
// pod) and against a bare allow-all Fastify over the same TLS material, both measured in the same run, alternating, so
// machine noise hits both. Both servers run as esbuild bundles under plain node, as the manager does (servers.ts).
// Two shapes: a closed loop (saturation throughput and the ratio) and an open loop paced at 1,000 req/s (latency at
// the issue's target rate, measured from the scheduled send time). With two or more CPUs and taskset, both servers are
// pinned to CPU 0 and this load generator to CPU 1. Everything is bounded by request count and time; the figures are
// printed, nothing is asserted about them.
//   --profile: CPU-profile the kruise server during one more closed-loop phase and print where the time goes
//   (--rounds 0 --profile: only that). Profiles name project files only when the servers run from sources.
//   --sources: run both servers from the TypeScript sources through tsx instead of the bundles.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { podReview } from './fixtures.js';
import { closedLoop, paced, sample, type PacedSummary, type Target } from './load.js';
import { formatHotSpots, hotSpots, type CpuProfile } from './profile.js';
import { ask, LABEL, MODES, serverCpuSeconds, startServer, type Mode, type Server } from './servers.js';
import type { Summary } from './stats.js';

// Until the JIT and the heap's young generation have settled: with 1,000 the first closed loop of a run was ~10%
// slower than the next ones.
const WARMUP = 10_000;
const CLOSED = { concurrency: 32, count: 20_000, maxSeconds: 30 };
const PACED = { rate: 1_000, count: 10_000, maxSeconds: 20, sockets: 64 };

const args = process.argv.slice(2);
// Read before pinning: availableParallelism follows this process's CPU affinity.
const cpus = availableParallelism();
const loadAtStart = loadavg()[0]!;
const roundsArg = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 1;
const rounds = Number.isInteger(roundsArg) && roundsArg >= 0 ? roundsArg : 1;
const profile = args.includes('--profile');
const fromSources = args.includes('--sources');

function canPin(): boolean {
  if (args.includes('--no-pin') || cpus < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const pin = canPin();
// -a: every thread of this process (libuv pool, V8 helpers) as well as the main one.
if (pin) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

/**
 * CPU seconds (user + system) the server and this load generator spent while `run` ran. A generator near 100% of its
 * core caps what the server can be shown to do (the bare server, above all).
 */
async function withCpu<T>(s: Server, run: () => Promise<T>): Promise<{ result: T; cpuSeconds: number; genCpuSeconds: number }> {
  const before = await serverCpuSeconds(s);
  const genBefore = process.cpuUsage();
  const result = await run();
  const gen = process.cpuUsage(genBefore);
  return { result, cpuSeconds: (await serverCpuSeconds(s)) - before, genCpuSeconds: (gen.user + gen.system) / 1e6 };
}

interface Row {
  phase: string;
  mode: Mode;
  summary: Summary | PacedSummary;
  cpuSeconds: number;
  genCpuSeconds: number;
}

const now = new Date();
const ca = generateCA(now);
const tls = generateServingCert(ca, 'localhost', now);
const bodies = Array.from({ length: 64 }, (_, i) => JSON.stringify(podReview(i)));
const servers: Server[] = [];
for (const mode of MODES) servers.push(await startServer(mode, tls, pin ? '0' : undefined, fromSources));
const target = (s: Server): Target => ({ port: s.port, ca: ca.cert, path: '/mutate-pod', bodies });
const rows: Row[] = [];
let profileText = '';
try {
  for (const s of servers) await closedLoop(target(s), { concurrency: CLOSED.concurrency, count: WARMUP, maxSeconds: 20 });
  for (let round = 0; round < rounds; round++) {
    for (const s of servers) {
      const r = await withCpu(s, () => closedLoop(target(s), CLOSED));
      rows.push({ phase: `closed loop, ${CLOSED.concurrency} concurrent`, mode: s.mode, summary: r.result, cpuSeconds: r.cpuSeconds, genCpuSeconds: r.genCpuSeconds });
    }
    for (const s of servers) {
      const r = await withCpu(s, () => paced(target(s), PACED));
      rows.push({ phase: `paced ${PACED.rate} req/s`, mode: s.mode, summary: r.result, cpuSeconds: r.cpuSeconds, genCpuSeconds: r.genCpuSeconds });
    }
  }
  if (profile) {
    const kruise = servers.find((x) => x.mode === 'kruise')!;
    await ask(kruise.child, { profile: 'start' }, 'profiling');
    const r = await closedLoop(target(kruise), CLOSED);
    const json = await ask<string>(kruise.child, { profile: 'stop' }, 'profile');
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const file = join(tmpdir(), `kruise-admission-${Date.now()}.cpuprofile`);
    writeFileSync(file, json);
    profileText = `CPU profile of the kruise server, closed loop (${r.rps.toFixed(0)} req/s under the sampler; ${file}):\n${formatHotSpots(hotSpots(JSON.parse(json) as CpuProfile, root), r.requests + r.failures)}`;
  }
  const replies = await Promise.all(servers.map((s) => sample(target(s))));
  const fmt = (n: number, d: number, w: number) => n.toFixed(d).padStart(w);
  console.log(`admission benchmark: POST /mutate-pod, HTTPS keep-alive, 127.0.0.1, Node ${process.version}, ${cpus} CPUs, load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
  console.log(`  servers: ${fromSources ? 'TypeScript sources through tsx (--sources)' : 'esbuild bundles under plain node, as the manager runs'}`);
  console.log(pin ? '  the servers pinned to CPU 0, load generator to CPU 1 (taskset)' : '  not pinned (taskset missing, one CPU, or --no-pin): client and servers share the CPUs');
  console.log(`  request ${Buffer.byteLength(bodies[0]!)} B (Deployment-style pod); kruise-ts: 100 SidecarSets cached, 10 match; replies ${servers.map((x, i) => `${x.mode} ${replies[i]!.bytes} B`).join(', ')}`);
  console.log(`  closed loop: ${CLOSED.count} requests after ${WARMUP} warm-up, ${CLOSED.concurrency} concurrent; paced: ${PACED.count} requests at ${PACED.rate}/s over ${PACED.sockets} connections, latency from the scheduled send time; connections opened before each phase`);
  console.log(`  ${'phase'.padEnd(28)} ${'target'.padEnd(23)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'server CPU'.padStart(11)} ${'CPU/req'.padStart(9)} ${'generator'.padStart(9)}  ok/failed`);
  for (const r of rows) {
    const s = r.summary;
    const lag = 'sendLagP99ms' in s ? `  (send lag p99 ${s.sendLagP99ms.toFixed(2)} ms)` : '';
    const busy = `${fmt((100 * r.cpuSeconds) / s.seconds, 0, 4)}% core`;
    const perReq = `${fmt((r.cpuSeconds * 1e6) / Math.max(1, s.requests + s.failures), 0, 5)} µs`;
    const gen = `${fmt((100 * r.genCpuSeconds) / s.seconds, 0, 4)}%`;
    console.log(`  ${r.phase.padEnd(28)} ${LABEL[r.mode].padEnd(23)} ${fmt(s.rps, 0, 7)} ${fmt(s.p50ms, 2, 8)} ${fmt(s.p99ms, 2, 8)} ${busy.padStart(11)} ${perReq.padStart(9)} ${gen.padStart(9)}  ${s.requests}/${s.failures}${lag}`);
  }
  const closedRows = rows.filter((r) => r.phase.startsWith('closed'));
  const sum = (mode: Mode, f: (r: Row) => number) => closedRows.filter((r) => r.mode === mode).reduce((a, r) => a + f(r), 0);
  const rps = (mode: Mode) => sum(mode, (r) => r.summary.rps);
  const cpu = (mode: Mode) => sum(mode, (r) => r.cpuSeconds) / sum(mode, (r) => r.summary.requests + r.summary.failures);
  const ratio = (a: Mode, b: Mode) => `${a}/${b} ${(rps(a) / rps(b)).toFixed(3)} (CPU per request ${b}/${a} ${(cpu(b) / cpu(a)).toFixed(3)})`;
  console.log(`  throughput ratios (closed loop): ${ratio('kruise', 'bare')}; ${ratio('kruise', 'noop')}; ${ratio('noop', 'bare')}`);
  // Said with the figures, so a ratio is never read without it.
  console.log('  bare Fastify parses bodies through its content-type parser (one AsyncResource.bind per request, costly on Node 20: webhook/admission/body.ts); the kruise-ts app reads its own');
  // A closed loop measures the server only if the server is what runs out: say so when it did not use its core.
  for (const r of closedRows) {
    const busy = r.cpuSeconds / r.summary.seconds;
    if (busy < 0.8) {
      console.log(`  note: ${LABEL[r.mode]} used only ${(100 * busy).toFixed(0)}% of a core in the closed loop (generator ${((100 * r.genCpuSeconds) / r.summary.seconds).toFixed(0)}%): ` +
        'other processes held the CPUs or the generator could not keep up, so that row is not the server\'s capacity');
    }
  }
  if (profileText) console.log(profileText);
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
}
