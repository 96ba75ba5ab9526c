// The admission server's limits against hostile clients (review H1), over real sockets on 127.0.0.1 with short
// timeouts: slow headers and slow bodies are cut, stalled bodies cannot together buffer more than the byte budget,
// a refused body is not read on, connections are capped, and a TLS handshake that never starts is cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { generateCA, generateServingCert } from '../certs/generate.js';
import { WEBHOOK_SERVER_DEFAULTS, type WebhookServerLimits } from '../shared/config.js';
import { silentLogger } from '../shared/log.js';
import { allowed } from './admission/response.js';
import { byteBudget, type ByteBudget } from './admission/byte-budget.js';
import { ADMISSION_BODY_LIMIT } from './admission/route.js';
import { buildApp } from './app.js';
import { createMetrics } from './metrics.js';
import { review } from './test-helpers.js';

const MIB = 1024 * 1024;
const FAST: WebhookServerLimits = { ...WEBHOOK_SERVER_DEFAULTS, requestTimeoutMs: 300, headersTimeoutMs: 300 };

async function serve(limits: WebhookServerLimits, opts: { tls?: { key: string; cert: string }; budget?: ByteBudget } = {}) {
  const budget = opts.budget ?? byteBudget(limits.maxInFlightBodyBytes);
  const app: FastifyInstance = buildApp({
    log: silentLogger(),
    metrics: createMetrics(),
    limits,
    bodyBudget: budget,
    routes: [{ path: '/allow', name: 'allow', handler: () => allowed() }],
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, budget, port: (app.server.address() as AddressInfo).port };
}

interface Client { socket: Socket; closed: Promise<void>; isClosed: () => boolean; response: () => string }

function client(port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    let text = '';
    let closed = false;
    const socket = tcpConnect({ host: '127.0.0.1', port }, () => resolve({ socket, closed: closedP, isClosed: () => closed, response: () => text }));
    const closedP = new Promise<void>((r) => socket.on('close', () => { closed = true; r(); }));
    socket.on('data', (d: Buffer) => { text += d.toString('latin1'); });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const head = (extra: string) => `POST /allow HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${extra}`;

test('slowloris headers (one header line every 50 ms) are cut by the headers timeout', async () => {
  const { app, port } = await serve(FAST);
  try {
    const c = await client(port);
    c.socket.write('POST /allow HTTP/1.1\r\nHost: localhost\r\n');
    let lines = 0;
    for (; lines < 100 && !c.isClosed(); lines++) {
      c.socket.write(`X-Slow-${lines}: 1\r\n`);
      await sleep(50);
    }
    assert.ok(c.isClosed(), 'the server closed the connection');
    assert.ok(lines < 100, `cut after ${lines} of 100 header lines`);
  } finally {
    await app.close();
  }
});

test('a slowloris body (one byte every 50 ms) is cut by the request timeout with a 408', async () => {
  const { app, port, budget } = await serve(FAST);
  try {
    const c = await client(port);
    c.socket.write(head('Content-Length: 1000\r\n\r\n{"x":"'));
    let bytes = 0;
    for (; bytes < 100 && !c.isClosed(); bytes++) {
      c.socket.write('y');
      await sleep(50);
    }
    await c.closed;
    assert.ok(bytes < 100, `cut after ${bytes} of 100 body bytes`);
    assert.match(c.response(), /^HTTP\/1\.1 408/);
    assert.equal(budget.used, 0, 'the cut body gave its bytes back');
  } finally {
    await app.close();
  }
});

test('100 stalled 7 MiB - 1 byte bodies never buffer more than the byte budget; the rest are refused with 503', async () => {
  const cap = 64 * MIB;
  const size = ADMISSION_BODY_LIMIT - 1;
  // A request timeout far beyond the test, so no stalled body is cut and its bytes freed for another one meanwhile.
  const { app, port, budget } = await serve({ ...WEBHOOK_SERVER_DEFAULTS, requestTimeoutMs: 600_000, maxInFlightBodyBytes: cap });
  const clients: Client[] = [];
  try {
    const body = Buffer.alloc(size, 'x');
    for (let i = 0; i < 100; i++) clients.push(await client(port));
    // Each settles when its body is handed to the kernel or the server closed the connection.
    await Promise.all(clients.map((c) => new Promise<void>((resolve) => {
      void c.closed.then(resolve);
      c.socket.write(head(`Content-Length: ${ADMISSION_BODY_LIMIT}\r\n\r\n`));
      c.socket.write(body, () => resolve());
    })));
    // Then until the server has read what was handed over: every connection still open holds its whole body.
    const open = () => clients.filter((c) => !c.isClosed());
    for (let i = 0; i < 500 && budget.used !== open().length * size; i++) await sleep(20);
    const held = open().length;
    assert.equal(budget.used, held * size, 'each connection still open holds its whole body');
    assert.ok(budget.peak <= cap, `peak ${budget.peak} within the cap ${cap}`);
    assert.ok(held <= Math.floor(cap / size), `${held} bodies held; at most ${Math.floor(cap / size)} fit`);
    // The answer may be lost to the reset of a connection whose body was still arriving; at least one is read.
    const answered = clients.filter((c) => /^HTTP\/1\.1 503/.test(c.response()));
    assert.ok(answered.length > 0, 'refusals are 503s');
    assert.match(answered[0]!.response(), /retry-after: 1/i);
    assert.match(answered[0]!.response(), /connection: close/i);
  } finally {
    for (const c of clients) c.socket.destroy();
    await app.close();
  }
  // The server sees the clients' closes in its own time; the bytes must come back once it has.
  for (let i = 0; i < 200 && budget.used > 0; i++) await sleep(10);
  assert.equal(budget.used, 0, 'every body gave its bytes back');
});

test('a body streamed past the 7 MiB limit is not read on: the connection ends long before 64 MiB', async () => {
  const { app, port } = await serve(WEBHOOK_SERVER_DEFAULTS);
  try {
    const c = await client(port);
    c.socket.write(head('Transfer-Encoding: chunked\r\n\r\n'));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    let accepted = 0;
    while (accepted < 64 * MIB && !c.isClosed()) {
      const ok = await new Promise<boolean>((resolve) => c.socket.write(framed, (err) => resolve(!err)));
      if (!ok) break;
      accepted += chunk.length;
    }
    await c.closed;
    assert.ok(accepted < 32 * MIB, `${(accepted / MIB).toFixed(1)} MiB accepted of 64`);
  } finally {
    await app.close();
  }
});

test('a Content-Length over the limit gets 413 with Connection: close, and the server closes the socket', async () => {
  const { app, port } = await serve(WEBHOOK_SERVER_DEFAULTS);
  try {
    const c = await client(port);
    c.socket.write(head(`Content-Length: ${ADMISSION_BODY_LIMIT + 1}\r\n\r\n{"x":"`));
    await c.closed;
    assert.match(c.response(), /^HTTP\/1\.1 413/);
    assert.match(c.response(), /connection: close/i);
  } finally {
    await app.close();
  }
});

test('a well-formed review on a kept-alive connection is answered twice, without Connection: close', async () => {
  const { app, port } = await serve(WEBHOOK_SERVER_DEFAULTS);
  try {
    const c = await client(port);
    const body = JSON.stringify(review());
    const req = head(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    c.socket.write(req + req);
    while ((c.response().match(/HTTP\/1\.1 200/g) ?? []).length < 2 && !c.isClosed()) await sleep(10);
    assert.equal((c.response().match(/HTTP\/1\.1 200/g) ?? []).length, 2);
    assert.doesNotMatch(c.response(), /connection: close/i);
    c.socket.destroy();
  } finally {
    await app.close();
  }
});

test('connections past maxConnections are closed on accept; the ones held keep working', async () => {
  const { app, port } = await serve({ ...WEBHOOK_SERVER_DEFAULTS, maxConnections: 3 });
  const body = JSON.stringify(review());
  const ask = async (c: Client) => {
    const before = c.response().length;
    c.socket.write(head(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`));
    while (!/HTTP\/1\.1 200[\s\S]*\}$/.test(c.response().slice(before)) && !c.isClosed()) await sleep(10);
    return c.response().slice(before);
  };
  const held: Client[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      held.push(await client(port));
      assert.match(await ask(held[i]!), /^HTTP\/1\.1 200/);
    }
    const extra = await Promise.all([client(port), client(port)]);
    await Promise.all(extra.map((c) => c.closed));
    assert.deepEqual(extra.map((c) => c.response()), ['', ''], 'refused connections got no answer');
    for (const c of held) assert.match(await ask(c), /^HTTP\/1\.1 200/);
  } finally {
    for (const c of held) c.socket.destroy();
    await app.close();
  }
});

test('a TCP connection that never starts its TLS handshake is cut by the handshake timeout', { timeout: 20_000 }, async () => {
  const now = new Date();
  const tls = generateServingCert(generateCA(now), 'localhost', now);
  const { app, port } = await serve(FAST, { tls });
  try {
    const idle = await client(port);
    await idle.closed;
    // A real handshake still works on the same server.
    const ok = await new Promise<boolean>((resolve) => {
      const s = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    assert.equal(ok, true);
  } finally {
    await app.close();
  }
});
