// readJsonBody over a real HTTP connection on loopback: chunked and sized bodies, limits, media types, bad JSON, and
// the byte budget shared by bodies in flight.
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import Fastify from 'fastify';
import { readJsonBody, type BodyResult, type JsonParser } from './body.js';
import { byteBudget, type ByteBudget } from './byte-budget.js';

const parse = Fastify().getDefaultJsonParser('error', 'error') as JsonParser;

/** Sends `chunks` (chunked unless `length` is given) and returns what readJsonBody made of them on the server. */
async function read(chunks: (string | Buffer)[], headers: Record<string, string>, limit = 64, budget: ByteBudget = byteBudget(1024)): Promise<BodyResult> {
  let got: Promise<BodyResult> | undefined;
  const server = createServer((req: IncomingMessage, res) => {
    // As the routes do (send-reply.ts chargeRequest): the request's charge lives until its response closes.
    const charge = budget.charge(req.socket.remoteAddress ?? '');
    res.once('close', () => charge.release());
    got = readJsonBody(req, limit, parse, charge);
    void got.then((r) => res.writeHead(r.ok ? 200 : r.code).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', headers }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      for (const c of chunks) req.write(c);
      req.end();
    });
    return await got!;
  } finally {
    server.close();
  }
}

const json = { 'content-type': 'application/json' };

test('a body in several chunks, a multi-byte character split between two of them, parses whole', async () => {
  const bytes = Buffer.from('{"name":"ü😀"}');
  const r = await read([bytes.subarray(0, 10), bytes.subarray(10, 12), bytes.subarray(12)], { ...json, 'content-type': 'application/json; charset=utf-8' });
  assert.deepEqual(r, { ok: true, body: { name: 'ü😀' } });
});

test('a Content-Length over the limit is refused with 413 before reading', async () => {
  const body = JSON.stringify({ x: 'y'.repeat(100) });
  const r = await read([body], { ...json, 'content-length': String(Buffer.byteLength(body)) });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.code, 413);
});

test('a chunked body growing over the limit is refused with 413, and the connection still gets its answer', async () => {
  const r = await read(['{"x":"', 'y'.repeat(40), 'y'.repeat(40), '"}'], json);
  assert.equal(!r.ok && r.code, 413);
  assert.match(!r.ok ? r.message : '', /larger than 64 bytes/);
});

test('a body of exactly the limit is read', async () => {
  const body = `{"x":"${'y'.repeat(64 - 8)}"}`;
  assert.equal(Buffer.byteLength(body), 64);
  assert.deepEqual(await read([body], json), { ok: true, body: { x: 'y'.repeat(56) } });
});

test('media types other than application/json, or none, are refused with 415', async () => {
  for (const type of ['text/plain', 'application/jsonx', 'application/x-www-form-urlencoded']) {
    const r = await read(['{}'], { 'content-type': type });
    assert.equal(!r.ok && r.code, 415, type);
  }
  const none = await read(['{}'], {});
  assert.equal(!none.ok && none.code, 415);
});

test('an empty body, bad JSON and a __proto__ key are refused with 400 by Fastify\'s parser', async () => {
  for (const body of ['', '{"a":', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"p":1}}}']) {
    const r = await read(body ? [body] : [], json);
    assert.equal(!r.ok && r.code, 400, JSON.stringify(body));
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('a chunk that would take the bytes in flight past the budget is refused with 503, and the bytes are given back', async () => {
  const budget = byteBudget(50);
  assert.ok(budget.charge('another client').tryAdd(20), 'another body holds 20 bytes');
  const r = await read(['{"x":"', 'y'.repeat(20), 'y'.repeat(20), '"}'], json, 64, budget);
  assert.equal(!r.ok && r.code, 503);
  assert.match(!r.ok ? r.message : '', /in flight/);
  assert.equal(budget.used, 20, 'only the other body\'s bytes are still held');
  assert.ok(budget.peak <= 50);
});

test('the budget is given back after the response to a parsed body, a bad body and an over-long one', async () => {
  const budget = byteBudget(1024);
  assert.deepEqual(await read(['{"a":', '1}'], json, 64, budget), { ok: true, body: { a: 1 } });
  assert.equal(!(await read(['{"a":'], json, 64, budget)).ok, true);
  assert.equal(!(await read(['{"x":"', 'y'.repeat(80), '"}'], json, 64, budget)).ok, true);
  assert.equal(budget.used, 0);
  assert.ok(budget.peak > 0, 'the bodies were charged while read');
});

test('a request cut before its body ends gives its bytes back', async () => {
  const budget = byteBudget(1024);
  let got: Promise<BodyResult> | undefined;
  let arrived!: () => void;
  const started = new Promise<void>((r) => (arrived = r));
  const server = createServer((req, res) => {
    const charge = budget.charge('client');
    res.once('close', () => charge.release());
    got = readJsonBody(req, 1000, parse, charge);
    req.once('data', () => arrived());
    void got.then(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', headers: { ...json, 'content-length': '500' } });
    req.on('error', () => {});
    req.write('{"x":"' + 'y'.repeat(100));
    await started;
    assert.ok(budget.used > 0, 'the partial body is charged');
    req.destroy();
    const r = await got!;
    assert.equal(r.ok, false);
    for (let i = 0; i < 100 && budget.used > 0; i++) await new Promise((t) => setTimeout(t, 5));
    assert.equal(budget.used, 0);
  } finally {
    server.close();
  }
});

test('the charge holds the body\'s bytes after it is parsed, until the caller releases it (the response closes)', async () => {
  const budget = byteBudget(1024);
  let charge: ReturnType<ByteBudget['charge']> | undefined;
  const server = createServer((req, res) => {
    charge = budget.charge('client');
    void readJsonBody(req, 1000, parse, charge).then((r) => {
      assert.equal(r.ok, true);
      assert.equal(budget.used, 12, 'parsed, and still charged: the answer is not written yet');
      res.once('close', () => charge!.release());
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', headers: json }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('{"a":"1234"}');
    });
    for (let i = 0; i < 100 && budget.used > 0; i++) await new Promise((t) => setTimeout(t, 5));
    assert.equal(budget.used, 0);
    assert.equal(charge!.bytes, 0);
  } finally {
    server.close();
  }
});
