// What slow and stalled clients cost the admission server (review H1), over real TLS on 127.0.0.1 against buildApp
// with its default (production) limits and an allow-all route, in a child process so its memory is its own:
//   1. slowloris: 25 connections send their headers one line every 5 s, 25 send their body one byte every 5 s;
//      how many are still open after HOLD_S seconds (the request timeout is 30 s, headers 10 s);
//   2. 40 connections each send 7 MiB - 1 of a 7 MiB body and stall: the server's RSS and arrayBuffers, and how many
//      bodies it refused;
//   3. one chunked body streamed past the 7 MiB limit towards 64 MiB: how much the server accepted after its 413;
//   4. the second review's reproductions (hostile-clients.ts), each while ordinary pod reviews are sent from another
//      source: 70 unread replies to a sharing review (N-H2), 2 stalled 32 MiB /convert bodies + 10 stalled admission
//      bodies (N-H3), 1,000 idle kept-alive connections from one source and from four (N-H4).
// The server runs the production /mutate-pod (makeRoutes) with 4 SidecarSets sharing the pod's volumes.
// Prints figures; stops by itself (about three minutes). Run: npm run bench:admission:slow
import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { silentLogger } from '../../shared/log.js';
import { GATE_DEFAULTS } from '../../shared/feature-gates.js';
import { buildApp } from '../../webhook/app.js';
import { admissionCaches, staticCache } from '../../webhook/caches.js';
import { sharingSidecarSets } from '../../webhook/fuzz/cost-cases.js';
import { makeRoutes } from '../../webhook/handlers/index.js';
import { createMetrics } from '../../webhook/metrics.js';
import { idleConnections, stalledShares, unreadReplies, type Probe } from './hostile-clients.js';

const HOLD_S = Number(process.env.HOLD_S ?? 35);
// ONLY=hostile runs part 4 alone.
const HOSTILE_ONLY = process.env.ONLY === 'hostile';
const SLOW_EACH = 25;
const STALLED = 40;
const MIB = 1024 * 1024;
const BODY_LIMIT = 7 * MIB;

interface Stats { rss: number; arrayBuffers: number; connections: number }

function productionRoutes() {
  const caches = admissionCaches(
    { sidecarSets: staticCache(sharingSidecarSets(4) as never[]), namespaces: staticCache([{ metadata: { name: 'default', labels: {} } }]), revisions: staticCache([]), configMaps: staticCache([]) },
    { fetchPod: async () => undefined, fetchNode: async () => undefined },
  );
  const gates = { ...GATE_DEFAULTS, ResourceDistributionGate: true };
  return makeRoutes({ caches, gates, now: () => new Date(), random: Math.random });
}

async function serveChild(): Promise<void> {
  const now = new Date();
  const tls = generateServingCert(generateCA(now), 'localhost', now);
  const app = buildApp({ log: silentLogger(), metrics: createMetrics(), tls, routes: productionRoutes() });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.send!({ port: (app.server.address() as AddressInfo).port });
  let peak = 0;
  setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 20).unref();
  process.on('message', (m: { stats?: boolean; peak?: boolean }) => {
    if (m.peak) {
      const p = Math.max(peak, process.memoryUsage.rss());
      peak = 0;
      process.send!({ peak: p });
    }
    if (!m.stats) return;
    (globalThis as { gc?: () => void }).gc?.();
    const mem = process.memoryUsage();
    app.server.getConnections((_err, connections) => process.send!({ stats: { rss: mem.rss, arrayBuffers: mem.arrayBuffers, connections } }));
  });
  process.on('disconnect', () => process.exit(0));
}

function ask<T>(child: ChildProcess, msg: object, key: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (!(key in m)) return;
      child.off('message', on);
      resolve(m[key] as T);
    };
    child.on('message', on);
    if (Object.keys(msg).length) child.send(msg);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (n: number) => `${(n / MIB).toFixed(0)} MiB`;

interface Client { socket: TLSSocket; closed: boolean; response: string }

function open(port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const c: Client = { socket: connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => resolve(c)), closed: false, response: '' };
    c.socket.on('data', (d: Buffer) => { if (c.response.length < 200) c.response += d.toString('latin1'); });
    c.socket.on('close', () => { c.closed = true; });
    c.socket.on('error', () => {});
    c.socket.once('error', reject);
  });
}

const head = (extra: string) => `POST /mutate-pod HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${extra}`;

async function slowloris(port: number, child: ChildProcess): Promise<string> {
  const headers = await Promise.all(Array.from({ length: SLOW_EACH }, () => open(port)));
  const bodies = await Promise.all(Array.from({ length: SLOW_EACH }, () => open(port)));
  for (const c of headers) c.socket.write(head(''));
  for (const c of bodies) c.socket.write(head('Content-Length: 1000\r\n\r\n'));
  const start = Date.now();
  while (Date.now() - start < HOLD_S * 1000) {
    await sleep(5000);
    for (const c of headers) if (!c.closed) c.socket.write(`X-Slow-${Date.now()}: 1\r\n`);
    for (const c of bodies) if (!c.closed) c.socket.write(' ');
  }
  const s = await ask<Stats>(child, { stats: true }, 'stats');
  const alive = (cs: Client[]) => cs.filter((c) => !c.closed).length;
  const line = `slowloris after ${HOLD_S} s: slow headers open ${alive(headers)}/${SLOW_EACH}, slow bodies open ${alive(bodies)}/${SLOW_EACH}, server connections ${s.connections}`;
  for (const c of [...headers, ...bodies]) c.socket.destroy();
  return line;
}

async function stalledBodies(port: number, child: ChildProcess, base: Stats): Promise<string[]> {
  const body = Buffer.alloc(BODY_LIMIT - 1, 'x');
  const clients = await Promise.all(Array.from({ length: STALLED }, () => open(port)));
  // Each write settles when the server took the whole body (it buffers it) or when it refused and closed.
  await Promise.all(clients.map((c) => new Promise<void>((resolve) => {
    c.socket.once('close', () => resolve());
    c.socket.write(head(`Content-Length: ${BODY_LIMIT}\r\n\r\n`));
    c.socket.write(body, () => resolve());
  })));
  await sleep(2000);
  const held = await ask<Stats>(child, { stats: true }, 'stats');
  const refused = clients.filter((c) => /^HTTP\/1\.1 5\d\d/.test(c.response)).length;
  const closed = clients.filter((c) => c.closed).length;
  for (const c of clients) c.socket.destroy();
  await sleep(1000);
  const after = await ask<Stats>(child, { stats: true }, 'stats');
  return [
    `${STALLED} stalled ${mib(BODY_LIMIT)} - 1 B bodies: RSS ${mib(base.rss)} → ${mib(held.rss)} (+${mib(held.rss - base.rss)}), arrayBuffers ${mib(base.arrayBuffers)} → ${mib(held.arrayBuffers)}; refused with 5xx ${refused}, closed by the server ${closed}`,
    `  after the clients closed: RSS ${mib(after.rss)}, arrayBuffers ${mib(after.arrayBuffers)}`,
  ];
}

async function pastTheLimit(port: number): Promise<string> {
  const c = await open(port);
  c.socket.write(head('Transfer-Encoding: chunked\r\n\r\n'));
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
  let accepted = 0;
  const deadline = Date.now() + 30_000;
  while (accepted < 64 * MIB && !c.closed && Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => c.socket.write(framed, (err) => resolve(!err)));
    if (!ok) break;
    accepted += chunk.length;
  }
  await sleep(200);
  const status = /^HTTP\/1\.1 (\d+)/.exec(c.response)?.[1] ?? 'none';
  c.socket.destroy();
  return `chunked body streamed towards 64 MiB: ${(accepted / MIB).toFixed(1)} MiB written before the connection ended (answer: ${status})`;
}

async function main(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await ask<number>(child, {}, 'port');
    const base = await ask<Stats>(child, { stats: true }, 'stats');
    const lines = [`server idle: RSS ${mib(base.rss)}, arrayBuffers ${mib(base.arrayBuffers)}`];
    if (!HOSTILE_ONLY) {
      lines.push(await slowloris(port, child));
      await sleep(1000);
      lines.push(...await stalledBodies(port, child, await ask<Stats>(child, { stats: true }, 'stats')));
      lines.push(await pastTheLimit(port));
    }
    const probe: Probe = { peakRss: () => ask<number>(child, { peak: true }, 'peak') };
    await sleep(1000);
    lines.push(...await unreadReplies(port, probe));
    await sleep(2000);
    lines.push(...await stalledShares(port, probe));
    await sleep(2000);
    for (const [sources, kind] of [[1, '404'], [1, 'review'], [4, 'review']] as const) lines.push(await idleConnections(port, sources, kind));
    process.stdout.write(`\nadmission server under slow and hostile clients (HTTPS 127.0.0.1, default limits)\n${lines.join('\n')}\n`);
  } finally {
    child.kill();
  }
}

if (process.argv.includes('--serve')) await serveChild();
else await main();
