// `npm run bench:admission`: HTTPS load on 127.0.0.1 against /mutate-pod of the real app (100 SidecarSets cached,
// 10 matching) and against a bare allow-all Fastify over the same TLS material. Bounded by request count and by
// time, loopback only, prints figures and asserts nothing about them.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:https';
import { fileURLToPath } from 'node:url';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { podReview } from './fixtures.js';
import { summarize, type Summary } from './stats.js';

const WARMUP = 1_000;
const REQUESTS = 20_000;
const CONCURRENCY = 32;
const MAX_SECONDS = 30;

async function startServer(mode: 'kruise' | 'bare', tls: { key: string; cert: string }): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./server.ts', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(JSON.stringify({ mode, ...tls }));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { port, child };
}

function post(port: number, ca: string, agent: Agent, body: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, servername: 'localhost', path: '/mutate-pod', method: 'POST', ca, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(res.statusCode === 200 && text.includes('"allowed":true')));
    });
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

async function load(port: number, ca: string, total: number, maxSeconds: number): Promise<Summary> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const bodies = Array.from({ length: 64 }, (_, i) => JSON.stringify(podReview(i)));
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(maxSeconds * 1e9);
  const worker = async () => {
    while (next < total && process.hrtime.bigint() < deadline) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      const ok = await post(port, ca, agent, bodies[i % bodies.length]!);
      if (ok) latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  agent.destroy();
  return summarize(latencies, failures, seconds);
}

const fmt = (s: Summary) => `${s.rps.toFixed(0).padStart(7)} req/s   p50 ${s.p50ms.toFixed(2).padStart(6)} ms   p99 ${s.p99ms.toFixed(2).padStart(6)} ms   (${s.requests} ok, ${s.failures} failed, ${s.seconds.toFixed(1)} s)`;

const now = new Date();
const ca = generateCA(now);
const tls = generateServingCert(ca, 'localhost', now);
const results: Record<string, Summary> = {};
for (const mode of ['bare', 'kruise'] as const) {
  const { port, child } = await startServer(mode, tls);
  try {
    await load(port, ca.cert, WARMUP, 10);
    results[mode] = await load(port, ca.cert, REQUESTS, MAX_SECONDS);
  } finally {
    child.kill('SIGTERM');
  }
}
const bare = results.bare!;
const kruise = results.kruise!;
console.log(`admission benchmark: ${REQUESTS} POST /mutate-pod over HTTPS keep-alive, concurrency ${CONCURRENCY}, 127.0.0.1`);
console.log(`  bare allow-all Fastify : ${fmt(bare)}`);
console.log(`  kruise-ts /mutate-pod  : ${fmt(kruise)}  [100 SidecarSets cached, 10 matching]`);
console.log(`  throughput ratio kruise/bare = ${(kruise.rps / bare.rps).toFixed(3)}`);
