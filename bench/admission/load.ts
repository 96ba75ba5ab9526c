// The two load shapes of the admission benchmark, both over one keep-alive HTTPS agent to 127.0.0.1:
//   closedLoop: N workers each send the next request when their previous one answered (finds the saturation rate);
//   paced:      a fixed arrival schedule (request i is due at start + i/rate) whatever the server does, with latency
//               taken from the *scheduled* time, so a stalled server is charged for the requests it held back
//               (no coordinated omission). How late the generator itself sent is reported apart.
// Both stop by themselves: after `count` requests or `maxSeconds`, whichever comes first. Both open their keep-alive
// connections before the clock starts and never open more: an apiserver keeps a warm pool too, and a TLS handshake
// in the middle of a phase (an agent growing its pool after a hiccup) would cost the server a millisecond of CPU and
// snowball into queueing that says nothing about request handling.
import { Agent, request } from 'node:https';
import { percentile, summarize, type Summary } from './stats.js';

export interface Target {
  port: number;
  ca: string;
  path: string;
  /** Request bodies, used round-robin. */
  bodies: readonly string[];
}

const REQUEST_TIMEOUT_MS = 10_000;

function post(t: Target, agent: Agent, body: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: t.port, servername: 'localhost', path: t.path, method: 'POST', ca: t.ca, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(res.statusCode === 200 && text.includes('"allowed":true')));
        res.on('error', () => resolve(false));
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy());
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

/** One request, for the record: the reply's status and size. */
export function sample(t: Target): Promise<{ status: number; bytes: number; contentType: string }> {
  return new Promise((resolve, reject) => {
    const body = t.bodies[0]!;
    const req = request({ host: '127.0.0.1', port: t.port, servername: 'localhost', path: t.path, method: 'POST', ca: t.ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, contentType: String(res.headers['content-type']) }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** A keep-alive agent with exactly `sockets` connections already open (requests beyond them wait in the agent). */
async function warmAgent(t: Target, sockets: number): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, scheduling: 'lifo' });
  await Promise.all(Array.from({ length: sockets }, (_, i) => post(t, agent, t.bodies[i % t.bodies.length]!)));
  return agent;
}

const now = () => process.hrtime.bigint();
const ms = (ns: bigint) => Number(ns) / 1e6;

export async function closedLoop(t: Target, opts: { concurrency: number; count: number; maxSeconds: number }): Promise<Summary> {
  const agent = await warmAgent(t, opts.concurrency);
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const start = now();
  const deadline = start + BigInt(opts.maxSeconds * 1e9);
  const worker = async () => {
    while (next < opts.count && now() < deadline) {
      const i = next++;
      const t0 = now();
      const ok = await post(t, agent, t.bodies[i % t.bodies.length]!);
      if (ok) latencies.push(ms(now() - t0));
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const seconds = Number(now() - start) / 1e9;
  agent.destroy();
  return summarize(latencies, failures, seconds);
}

export interface PacedSummary extends Summary {
  /** p99 of (actual send − scheduled send): the generator's own lateness, already included in the latencies. */
  sendLagP99ms: number;
}

export async function paced(t: Target, opts: { rate: number; count: number; maxSeconds: number; sockets: number }): Promise<PacedSummary> {
  // Enough open connections that a slow server queues requests on its side (where the latency belongs); past that they
  // wait in the agent, which the latency from the scheduled time still counts.
  const agent = await warmAgent(t, opts.sockets);
  const interval = 1e9 / opts.rate;
  const latencies: number[] = [];
  const lags: number[] = [];
  let failures = 0;
  let sent = 0;
  let done = 0;
  const start = now() + 5_000_000n;
  const deadline = start + BigInt(opts.maxSeconds * 1e9);
  const due = (i: number) => start + BigInt(Math.round(i * interval));

  await new Promise<void>((resolve) => {
    const finish = () => {
      if (done === sent && (sent === opts.count || now() >= deadline)) resolve();
    };
    const tick = () => {
      const t0 = now();
      while (sent < opts.count && t0 < deadline && due(sent) <= now()) {
        const scheduled = due(sent);
        const body = t.bodies[sent % t.bodies.length]!;
        sent++;
        lags.push(ms(now() - scheduled));
        void post(t, agent, body).then((ok) => {
          if (ok) latencies.push(ms(now() - scheduled));
          else failures++;
          done++;
          finish();
        });
      }
      if (sent >= opts.count || now() >= deadline) return finish();
      // Timers fire ~1 ms late at best; within 2 ms of the next send, spin on setImmediate (I/O still runs between
      // turns) so the schedule, not timer granularity, sets the send times.
      const wait = Number(due(sent) - now()) / 1e6;
      if (wait > 2) setTimeout(tick, Math.floor(wait - 1));
      else setImmediate(tick);
    };
    tick();
  });
  const seconds = Number(now() - start) / 1e9;
  agent.destroy();
  // Requests never sent before the deadline are failures too: the schedule promised them.
  failures += opts.count - sent;
  return { ...summarize(latencies, failures, seconds), sendLagP99ms: percentile(lags.sort((a, b) => a - b), 99) };
}
