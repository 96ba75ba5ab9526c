// `npm run bench:admission:vegeta [-- --rounds N]`: the admission benchmark with a Go load generator (vegeta, built
// from the Go module proxy into a cache outside the repo on first use) instead of Node's HTTPS client. Same servers
// as run.ts (servers.ts: the production app with 100 SidecarSets cached, 10 matching; the app with an allow-all
// handler; a bare allow-all Fastify), same request bodies. A generator that costs little per request and schedules sends on its own threads keeps its own
// lateness out of the server's tail latency, which Node's single-threaded client cannot do at 1,000 req/s on a
// loaded 2-core machine. Phases, alternating the servers each round:
//   paced:  1,000 req/s for 10 s (vegeta's constant-rate attack; latency from the request's send)
//   closed: as fast as 32 workers go, for 10 s (saturation throughput; the throughput ratio)
// Servers are pinned to CPU 0 and vegeta to CPU 1 when taskset exists. Figures are printed; nothing is asserted.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { podReview } from './fixtures.js';
import { LABEL, MODES, serverCpuSeconds, startServer, type Mode, type Server } from './servers.js';

const VEGETA = 'github.com/tsenart/vegeta/v12@v12.13.0';
const PACED_RATE = 1_000;
const PHASE_SECONDS = 10;
const WORKERS = 32;

const args = process.argv.slice(2);
const roundsArg = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 2;
const rounds = Number.isInteger(roundsArg) && roundsArg > 0 ? roundsArg : 2;

function vegetaBinary(): string {
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kruise-ts-tools', VEGETA.replace(/[/@]/g, '_'));
  const bin = join(dir, 'vegeta');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  console.log(`building ${VEGETA} into ${dir} (once; about a minute)`);
  execFileSync('go', ['install', VEGETA], { env: { ...process.env, GOBIN: dir, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' }, stdio: 'inherit' });
  return bin;
}

const hasTaskset = (() => {
  if (availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

interface VegetaReport {
  latencies: { '50th': number; '99th': number; max: number };
  requests: number;
  throughput: number;
  success: number;
  status_codes: Record<string, number>;
  errors: string[] | null;
}

function run(cmd: string, argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const [c, ...rest] = hasTaskset ? ['taskset', '-c', '1', cmd, ...argv] : [cmd, ...argv];
    const child = spawn(c!, rest, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}`))));
  });
}

const work = mkdtempSync(join(tmpdir(), 'kruise-admission-vegeta-'));
const now = new Date();
const ca = generateCA(now);
const tls = generateServingCert(ca, '127.0.0.1', now);
writeFileSync(join(work, 'ca.pem'), ca.cert);
const bodies = Array.from({ length: 64 }, (_, i) => Buffer.from(JSON.stringify(podReview(i))).toString('base64'));

async function attack(bin: string, s: Server, phase: 'paced' | 'closed' | 'warmup'): Promise<VegetaReport> {
  const targets = join(work, `targets-${s.mode}.json`);
  if (!existsSync(targets)) {
    const url = `https://127.0.0.1:${s.port}/mutate-pod`;
    writeFileSync(targets, bodies.map((body) => JSON.stringify({ method: 'POST', url, body, header: { 'Content-Type': ['application/json'] } })).join('\n'));
  }
  const out = join(work, `${s.mode}-${phase}.bin`);
  const rate = phase === 'closed' ? ['-rate=0', `-max-workers=${WORKERS}`, `-workers=${WORKERS}`] : [`-rate=${PACED_RATE}/1s`, '-workers=32'];
  const duration = phase === 'warmup' ? 3 : PHASE_SECONDS;
  await run(bin, ['attack', '-format=json', `-targets=${targets}`, `-root-certs=${join(work, 'ca.pem')}`, '-http2=false', '-keepalive=true', '-timeout=10s', `-duration=${duration}s`, ...rate, `-output=${out}`]);
  const report = execFileSync(bin, ['report', '-type=json', out], { encoding: 'utf8' });
  return JSON.parse(report) as VegetaReport;
}

interface Row {
  phase: 'paced' | 'closed';
  mode: Mode;
  report: VegetaReport;
  cpuSeconds: number;
}

const bin = vegetaBinary();
const loadAtStart = loadavg()[0]!;
const servers: Server[] = [];
for (const mode of MODES) servers.push(await startServer(mode, tls, hasTaskset ? '0' : undefined));
const rows: Row[] = [];
try {
  for (const s of servers) await attack(bin, s, 'warmup');
  for (let round = 0; round < rounds; round++) {
    for (const phase of ['paced', 'closed'] as const) {
      for (const s of servers) {
        const before = await serverCpuSeconds(s);
        const report = await attack(bin, s, phase);
        rows.push({ phase, mode: s.mode, report, cpuSeconds: (await serverCpuSeconds(s)) - before });
      }
    }
  }
  const ms = (ns: number) => (ns / 1e6).toFixed(2).padStart(8);
  console.log(`admission benchmark (vegeta ${VEGETA.split('@')[1]}): POST /mutate-pod, HTTPS keep-alive, 127.0.0.1, Node ${process.version}, load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
  console.log(hasTaskset ? '  both servers pinned to CPU 0, vegeta to CPU 1 (taskset)' : '  not pinned: servers and vegeta share the CPUs');
  console.log(`  ${rounds} round(s) of: paced ${PACED_RATE} req/s for ${PHASE_SECONDS} s, closed loop with ${WORKERS} workers for ${PHASE_SECONDS} s`);
  console.log(`  ${'phase'.padEnd(8)} ${'target'.padEnd(23)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'server CPU'.padStart(11)} ${'CPU/req'.padStart(9)}  ok`);
  for (const r of rows) {
    const busy = `${((100 * r.cpuSeconds) / PHASE_SECONDS).toFixed(0)}% core`;
    const perReq = `${((r.cpuSeconds * 1e6) / Math.max(1, r.report.requests)).toFixed(0)} µs`;
    const ok = `${(100 * r.report.success).toFixed(2)}% of ${r.report.requests}`;
    console.log(`  ${r.phase.padEnd(8)} ${LABEL[r.mode].padEnd(23)} ${r.report.throughput.toFixed(0).padStart(7)} ${ms(r.report.latencies['50th'])} ${ms(r.report.latencies['99th'])} ${ms(r.report.latencies.max)} ${busy.padStart(11)} ${perReq.padStart(9)}  ${ok}`);
  }
  const closed = rows.filter((r) => r.phase === 'closed');
  const sum = (mode: Mode, f: (r: Row) => number) => closed.filter((r) => r.mode === mode).reduce((a, r) => a + f(r), 0);
  const cpuPerReq = (mode: Mode) => sum(mode, (r) => r.cpuSeconds) / sum(mode, (r) => r.report.requests);
  const ratio = (a: Mode, b: Mode) => `${a}/${b} ${(sum(a, (r) => r.report.throughput) / sum(b, (r) => r.report.throughput)).toFixed(3)} (CPU per request ${b}/${a} ${(cpuPerReq(b) / cpuPerReq(a)).toFixed(3)})`;
  console.log(`  throughput ratios (closed loop): ${ratio('kruise', 'bare')}; ${ratio('kruise', 'noop')}; ${ratio('noop', 'bare')}`);
  const worstP99 = Math.max(...rows.filter((r) => r.phase === 'paced' && r.mode === 'kruise').map((r) => r.report.latencies['99th']));
  console.log(`  kruise-ts p99 at ${PACED_RATE} req/s, worst round: ${(worstP99 / 1e6).toFixed(2)} ms`);
  for (const r of rows) if (r.report.errors?.length) console.log(`  ${r.mode} ${r.phase} errors: ${r.report.errors.slice(0, 3).join('; ')}`);
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
