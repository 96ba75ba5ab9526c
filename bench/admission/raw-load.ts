// A cheaper closed-loop load generator than load.ts's for bench:admission:cores: `connections` keep-alive TLS sockets,
// each writing the next pre-encoded HTTP/1.1 request as soon as the previous response is complete, and reading the
// response with a minimal parser (status line, Content-Length, "allowed":true in the body). Node's HTTPS client costs
// about as much CPU per request as the server's admission work, which on a 2-CPU machine leaves a 2-core server no
// CPU to saturate; this one costs a fraction of it. HTTP/1.1 without pipelining, as the apiserver's client sends.
import { connect, type TLSSocket } from 'node:tls';
import { summarize, type Summary } from './stats.js';

export interface RawTarget {
  port: number;
  ca: string;
  path: string;
  bodies: readonly string[];
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** Each body as one request's bytes. */
function encode(t: RawTarget): Buffer[] {
  return t.bodies.map((b) => Buffer.concat([
    Buffer.from(`POST ${t.path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n`),
    Buffer.from(b),
  ]));
}

function open(t: RawTarget): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port: t.port, servername: 'localhost', ca: t.ca }, () => resolve(s));
    s.once('error', reject);
  });
}

/** One connection's loop: resolves when `more()` says stop or the connection fails. */
function drive(s: TLSSocket, requests: Buffer[], first: number, more: () => boolean, done: (ok: boolean, ms: number) => void): Promise<void> {
  return new Promise((resolve) => {
    let i = first;
    let buf: Buffer = Buffer.alloc(0);
    let t0 = 0;
    const send = () => {
      if (!more()) { s.destroy(); return resolve(); }
      t0 = performance.now();
      s.write(requests[i++ % requests.length]!);
    };
    s.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      const end = buf.indexOf(HEADER_END);
      if (end < 0) return;
      const head = buf.toString('latin1', 0, end);
      const m = /\r\ncontent-length: *(\d+)/i.exec(head);
      const total = end + 4 + (m ? Number(m[1]) : 0);
      if (buf.length < total) return;
      const ok = head.startsWith('HTTP/1.1 200') && buf.indexOf('"allowed":true', end) >= 0;
      buf = buf.subarray(total);
      done(ok, performance.now() - t0);
      send();
    });
    s.on('error', () => { done(false, 0); resolve(); });
    s.on('close', () => resolve());
    send();
  });
}

/** `count` requests (or `maxSeconds`) over `connections` sockets opened before the clock starts. */
export async function rawClosedLoop(t: RawTarget, o: { connections: number; count: number; maxSeconds: number }): Promise<Summary> {
  const requests = encode(t);
  const sockets = await Promise.all(Array.from({ length: o.connections }, () => open(t)));
  const latencies: number[] = [];
  let failures = 0;
  let started = 0;
  const start = performance.now();
  const deadline = start + o.maxSeconds * 1000;
  const more = () => started < o.count && performance.now() < deadline && (++started, true);
  const done = (ok: boolean, ms: number) => { if (ok) latencies.push(ms); else failures++; };
  await Promise.all(sockets.map((s, i) => drive(s, requests, i, more, done)));
  return summarize(latencies, failures, (performance.now() - start) / 1000);
}
