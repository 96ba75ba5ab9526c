// Replies against the byte budget (review N-H2), over real sockets on 127.0.0.1: a reply's bytes stay charged to
// its request until the socket has taken them, a reply whose reader stopped reading is destroyed after the write
// timeout, and a reply the apiserver could never apply is replaced by a 400 AdmissionResponse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowed, type AdmissionResult } from './admission/response.js';
import { MAX_ADMISSION_REPLY_BYTES } from './admission/reply-limit.js';
import { ask, client, reviewRequest, serve, sleep, until, type Client } from './socket-test-helpers.js';

const MIB = 1024 * 1024;
// A base64 patch as diffToPatch makes them (only its size matters here: the route never decodes it).
const patchOf = (bytes: number): AdmissionResult => ({ allowed: true, patch: 'A'.repeat(bytes), patchType: 'JSONPatch' });

// A conversion reply is as large as its review (up to 7 MiB): beyond what the loopback's kernel buffers take from an
// unread socket (about 4 MiB here), so part of it stays in the process. An admission reply is at most 3 MiB.
const conversion = (padBytes: number) => JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'ConversionReview',
  request: { uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1beta1', objects: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'a' }, pad: 'x'.repeat(padBytes) }] },
});

test('an unread 6 MiB conversion reply stays charged to the budget until the write timeout destroys its connection', async () => {
  const { app, budget, port } = await serve([], { replyWriteTimeoutMs: 1500 });
  try {
    const c = await client(port);
    c.socket.pause();
    c.socket.write(reviewRequest('/convert', conversion(6 * MIB)));
    assert.ok(await until(() => budget.used >= 12 * MIB), `the body and the reply are charged (${budget.used} bytes held)`);
    await sleep(500);
    assert.ok(budget.used >= 12 * MIB, 'still charged while the client does not read');
    assert.ok(await until(() => budget.used === 0, 5000), 'the write timeout destroyed the reply, and its bytes came back');
    // The paused client sees the end of its connection once it reads again.
    c.socket.resume();
    assert.ok(await until(() => c.isClosed(), 5000), 'the connection was closed by the server');
  } finally {
    await app.close();
  }
});

test('a read reply gives its bytes back, and the connection stays open for the next review', async () => {
  const { app, budget, port } = await serve([{ path: '/big', name: 'big', handler: () => patchOf(2.5 * MIB) }], { replyWriteTimeoutMs: 1000 });
  try {
    const r = await ask(port, reviewRequest('/big'));
    assert.equal(r.status, 200);
    assert.ok(await until(() => budget.used === 0));
    assert.ok(budget.peak >= 2.5 * MIB, 'the reply was charged while written');
    await sleep(1500);
    assert.equal(r.client.isClosed(), false, 'a drained reply is not cut by the write timeout');
    r.client.socket.destroy();
  } finally {
    await app.close();
  }
});

test('unread replies from one source hold at most its share; its further requests get 503, another source is served', async () => {
  const { app, budget, port, limits } = await serve([{ path: '/ok', name: 'ok', handler: () => allowed() }], { replyWriteTimeoutMs: 60_000 });
  const clients: Client[] = [];
  try {
    for (let i = 0; i < 4; i++) {
      const c = await client(port);
      c.socket.pause();
      c.socket.write(reviewRequest('/convert', conversion(5 * MIB)));
      clients.push(c);
      await until(() => budget.used >= 10 * MIB, 2000);
    }
    await sleep(300);
    assert.ok(budget.peak <= limits.maxInFlightBodyBytesPerSource, `peak ${budget.peak} within the source's share`);
    assert.ok(budget.used >= 10 * MIB, 'one request holds its body and its reply');
    const other = await ask(port, reviewRequest('/ok'), '127.0.0.2');
    assert.equal(other.status, 200);
    other.client.socket.destroy();
    for (const c of clients) c.socket.resume();
    await until(() => clients.every((c) => c.isClosed() || /HTTP\/1\.1 (200|503)/.test(c.response())));
    // A refusal may be lost to the reset of a connection whose body was still arriving: closed with no answer.
    const codes = clients.map((c) => /^HTTP\/1\.1 (\d+)/.exec(c.response())?.[1] ?? (c.isClosed() && c.response() === '' ? 'closed' : 'open'));
    assert.deepEqual(codes.filter((x) => x === '200').length, 1, `one answered, the rest refused: ${codes.join(',')}`);
    assert.ok(codes.every((x) => x === '200' || x === '503' || x === 'closed'), codes.join(','));
    assert.ok(codes.includes('503'), codes.join(','));
  } finally {
    for (const c of clients) c.socket.destroy();
    await app.close();
  }
});

test('a reply over 3 MiB is not sent: the review is refused with a 400 AdmissionResponse saying why', async () => {
  const { app, budget, port } = await serve([
    { path: '/huge', name: 'huge', handler: () => patchOf(MAX_ADMISSION_REPLY_BYTES) },
    { path: '/fits', name: 'fits', handler: () => patchOf(MAX_ADMISSION_REPLY_BYTES - 200) },
    { path: '/ok', name: 'ok', handler: () => allowed() },
  ]);
  try {
    const r = await ask(port, reviewRequest('/huge'));
    assert.equal(r.status, 200);
    const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)) as { response: AdmissionResult & { uid: string } };
    assert.equal(body.response.uid, 'uid-1');
    assert.equal(body.response.allowed, false);
    assert.equal(body.response.patch, undefined);
    assert.equal(body.response.status?.code, 400);
    assert.match(body.response.status?.message ?? '', /over the 3145728 bytes the apiserver could apply/);
    assert.ok(r.text.length < 10_000, 'the refusal is small');
    r.client.socket.destroy();
    const fits = await ask(port, reviewRequest('/fits'));
    assert.match(fits.text, /"patch":"AAAA/);
    fits.client.socket.destroy();
    assert.ok(await until(() => budget.used === 0));
  } finally {
    await app.close();
  }
});
