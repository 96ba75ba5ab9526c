// The second review's reproductions against the admission server (review N-H2, N-H3, N-H4), used by
// slow-clients.ts: each runs while ordinary pod reviews are sent from another source address, and reports their
// success rate and latency with the server's peak RSS. Clients connect from 127.0.0.x, each x a source address.
import { request as httpsRequest } from 'node:https';
import { connect as tcpConnect } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import { podReview } from '../../webhook/fuzz/cost-cases.js';

const MIB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (n: number) => `${(n / MIB).toFixed(0)} MiB`;

export interface Probe {
  /** Peak RSS since the last call (the server samples it every 20 ms), then resets it. */
  peakRss(): Promise<number>;
}

interface Conn { socket: TLSSocket; closed: boolean; head: string; bytes: number }

function open(port: number, from: string): Promise<Conn> {
  return new Promise((resolve) => {
        // TLS over a TCP socket bound to `from`: the server sees that source address.
    const tcp = tcpConnect({ host: '127.0.0.1', port, localAddress: from });
    const c: Conn = { socket: connect({ socket: tcp, rejectUnauthorized: false }, () => resolve(c)), closed: false, head: '', bytes: 0 };
    c.socket.on('data', (d: Buffer) => { c.bytes += d.length; if (c.head.length < 100) c.head += d.toString('latin1', 0, 100); });
    c.socket.on('close', () => { c.closed = true; resolve(c); });
    c.socket.on('error', () => {});
  });
}

const post = (path: string, length: number) => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** An ordinary pod (it matches the server's sharing SidecarSets, so it is patched), as the apiserver sends it. */
const ORDINARY = JSON.stringify(podReview({ metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'registry.local/web/app:1' }] } } as never));

/** One ordinary review on a new connection from `from`: its status (0: no answer) and latency. */
function ordinary(port: number, from: string): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path: '/mutate-pod', method: 'POST', localAddress: from, rejectUnauthorized: false, agent: false, timeout: 10_000, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - start }));
    req.end(ORDINARY);
  });
}

/** Ordinary reviews every `everyMs` until `stop()` resolves: "ok/sent, p50/max latency". */
async function ordinaryWhile(port: number, everyMs: number, during: Promise<unknown>): Promise<string> {
  const results: Promise<{ status: number; ms: number }>[] = [];
  let over = false;
  void during.then(() => { over = true; });
  while (!over) {
    results.push(ordinary(port, '127.0.0.200'));
    await sleep(everyMs);
  }
  const all = await Promise.all(results);
  const ok = all.filter((r) => r.status === 200);
  const ms = ok.map((r) => r.ms).sort((a, b) => a - b);
  const codes = [...new Set(all.filter((r) => r.status !== 200).map((r) => r.status || 'none'))].join('/');
  return `ordinary reviews ${ok.length}/${all.length} answered 200${codes ? ` (others: ${codes})` : ''}, latency p50 ${(ms[Math.floor(ms.length / 2)] ?? NaN).toFixed(0)} ms, max ${(ms.at(-1) ?? NaN).toFixed(0)} ms`;
}

/** The review's N-H2 request: a 1.06 MiB pod with 12,000 env vars and 12,000 subPathExpr mounts (a ~6 MB patch before). */
function sharingPodReview(): string {
  const env = Array.from({ length: 12_000 }, (_, i) => ({ name: `E${i}`, value: 'v' }));
  const volumeMounts = Array.from({ length: 12_000 }, (_, i) => ({ name: 'data', mountPath: `/d/${i}`, subPathExpr: `$(E${i})` }));
  return JSON.stringify(podReview({ metadata: { name: 'share', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'registry.local/web/app:1', env, volumeMounts }], volumes: [{ name: 'data', emptyDir: {} }] } } as never));
}

/** N-H2: `n` clients from one source each send the sharing review and never read the answer. */
export async function unreadReplies(port: number, probe: Probe, n = 70): Promise<string[]> {
  const body = sharingPodReview();
  await probe.peakRss();
  const clients: Conn[] = [];
  const sending = (async () => {
    for (let i = 0; i < n; i++) {
      const c = await open(port, '127.0.0.2');
      c.socket.write(post('/mutate-pod', Buffer.byteLength(body)) + body);
      c.socket.pause();
      clients.push(c);
      await sleep(150);
    }
    await sleep(3000);
  })();
  const line = await ordinaryWhile(port, 500, sending);
  const peak = await probe.peakRss();
  for (const c of clients) c.socket.resume();
  await sleep(2000);
  const heads = clients.map((c) => /^HTTP\/1\.1 (\d+)/.exec(c.head)?.[1] ?? (c.closed ? 'closed' : 'none'));
  const count = (s: string) => heads.filter((h) => h === s).length;
  const patched = clients.filter((c) => c.bytes > 3 * MIB).length;
  for (const c of clients) c.socket.destroy();
  return [
    `${n} unread replies to a ${mib(Buffer.byteLength(body))} sharing review (12,000 env + 12,000 subPathExpr mounts, 4 sharing SidecarSets): peak RSS ${mib(peak)}; answers 200 ${count('200')} (over 3 MiB: ${patched}), 503 ${count('503')}, closed unanswered ${count('closed')}, none ${count('none')}`,
    `  ${line}`,
  ];
}

/** N-H3: 2 stalled 32 MiB - 1 /convert bodies and 10 stalled admission bodies (9 × 7 MiB - 1, 1 MiB - 1), each its own source. */
export async function stalledShares(port: number, probe: Probe): Promise<string[]> {
  await probe.peakRss();
  const stall = async (path: string, length: number, from: string) => {
    const c = await open(port, from);
    await new Promise<void>((resolve) => {
      c.socket.once('close', () => resolve());
      c.socket.write(post(path, length));
      c.socket.write(Buffer.alloc(length - 1, 'x'), () => resolve());
    });
    return c;
  };
  const stalled = [
    await stall('/convert', 32 * MIB, '127.0.0.3'),
    await stall('/convert', 32 * MIB, '127.0.0.4'),
    ...await Promise.all(Array.from({ length: 10 }, (_, i) => stall('/mutate-pod', i < 9 ? 7 * MIB : MIB, `127.0.1.${i + 1}`))),
  ];
  const line = await ordinaryWhile(port, 500, sleep(10_000));
  const peak = await probe.peakRss();
  const held = stalled.filter((c) => !c.closed).length;
  const codes = stalled.map((c) => /^HTTP\/1\.1 (\d+)/.exec(c.head)?.[1] ?? (c.closed ? 'closed' : 'held'));
  for (const c of stalled) c.socket.destroy();
  return [`2 stalled 32 MiB /convert bodies + 10 stalled admission bodies (12 sources): peak RSS ${mib(peak)}; still held ${held}/12 (${codes.join(',')})`, `  ${line}`];
}

/**
 * N-H4: 1,000 kept-alive connections from `sources` addresses, each sending one request (the review's GET /healthz,
 * a 404; or an ordinary review, which keeps its connection) and then idle; then a new client sends 5 reviews.
 */
export async function idleConnections(port: number, sources: number, ask: '404' | 'review'): Promise<string> {
  const conns: Conn[] = [];
  for (let i = 0; i < 1000; i++) {
    const c = await open(port, `127.0.3.${1 + (i % sources)}`);
    if (!c.closed) c.socket.write(ask === '404' ? 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n' : post('/mutate-pod', Buffer.byteLength(ORDINARY)) + ORDINARY);
    conns.push(c);
  }
  await sleep(1000);
  const open1 = conns.filter((c) => !c.closed).length;
  const results = [];
  for (let i = 0; i < 5; i++) results.push(await ordinary(port, '127.0.0.201'));
  const ok = results.filter((r) => r.status === 200).length;
  for (const c of conns) c.socket.destroy();
  await sleep(500);
  const what = ask === '404' ? 'GET /healthz (404)' : 'an ordinary review';
  return `1,000 connections, each sent ${what} then idle, from ${sources} source(s): ${open1} still open after 1 s; then a new client: ${ok}/5 reviews answered 200`;
}
