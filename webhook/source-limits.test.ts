// Per-source limits (review N-H3, N-H4, N-M1), over real sockets on 127.0.0.1, other sources connecting from
// 127.0.0.2 …: stalled bodies of one source, or of /convert, cannot take the byte budget from ordinary reviews; big
// bodies leave a reserve to small ones; one source cannot hold every connection; unknown paths close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowed } from './admission/response.js';
import { ADMISSION_BODY_LIMIT } from './admission/route.js';
import { ask, client, reviewRequest, serve, sleep, stall, until, type Client } from './socket-test-helpers.js';

const MIB = 1024 * 1024;
const routes = [{ path: '/allow', name: 'allow', handler: () => allowed() }];
// Far beyond each test, so no stalled body is cut and its bytes freed meanwhile.
const HOLD = { requestTimeoutMs: 600_000 };

const done = async (clients: Client[], app: { close(): Promise<unknown> }) => {
  for (const c of clients) c.socket.destroy();
  await app.close();
};

test('ten stalled admission bodies from one source hold only its share: another source\'s review is answered', async () => {
  const { app, budget, port, limits } = await serve(routes, HOLD);
  const clients: Client[] = [];
  try {
    for (let i = 0; i < 9; i++) clients.push(await stall(port, '/allow', ADMISSION_BODY_LIMIT, ADMISSION_BODY_LIMIT - 1));
    clients.push(await stall(port, '/allow', MIB, MIB - 1));
    await sleep(300);
    assert.ok(budget.usedBy('127.0.0.1') <= limits.maxInFlightBodyBytesPerSource, `${budget.usedBy('127.0.0.1')} held by the source`);
    const r = await ask(port, reviewRequest('/allow'), '127.0.0.2');
    assert.equal(r.status, 200, r.text.slice(0, 200));
    r.client.socket.destroy();
  } finally {
    await done(clients, app);
  }
});

test('big bodies from many sources leave the small-request reserve: an ordinary review is still answered', async () => {
  const { app, budget, port, limits } = await serve(routes, HOLD);
  const clients: Client[] = [];
  try {
    // Nine sources, one stalled 7 MiB - 1 body each: 63 MiB, under the cap but past cap - reserve (56 MiB).
    for (let i = 0; i < 9; i++) clients.push(await stall(port, '/allow', ADMISSION_BODY_LIMIT, ADMISSION_BODY_LIMIT - 1, `127.0.1.${i + 1}`));
    await sleep(300);
    assert.ok(budget.used <= limits.maxInFlightBodyBytes - limits.smallRequestReserveBytes, `big bodies hold ${budget.used}`);
    const r = await ask(port, reviewRequest('/allow'), '127.0.0.2');
    assert.equal(r.status, 200, r.text.slice(0, 200));
    r.client.socket.destroy();
  } finally {
    await done(clients, app);
  }
});

test('/convert bodies over 7 MiB get 413; stalled conversions hold only their share, and a review is answered', async () => {
  const { app, budget, port, limits } = await serve(routes, HOLD);
  const clients: Client[] = [];
  try {
    const over = await ask(port, reviewRequest('/convert', `{"pad":"${'x'.repeat(7 * MIB)}"}`));
    assert.equal(over.status, 413);
    over.client.socket.destroy();
    // Three sources each stall a 7 MiB - 1 conversion: the third does not fit the conversion share (16 MiB).
    for (let i = 0; i < 3; i++) clients.push(await stall(port, '/convert', 7 * MIB, 7 * MIB - 1, `127.0.2.${i + 1}`));
    await sleep(300);
    assert.ok(budget.used <= limits.maxInFlightConversionBytes, `conversions hold ${budget.used}`);
    assert.ok(await until(() => clients.some((c) => c.isClosed())), 'one conversion was refused');
    const r = await ask(port, reviewRequest('/allow'), '127.0.0.2');
    assert.equal(r.status, 200);
    r.client.socket.destroy();
  } finally {
    await done(clients, app);
  }
});

test('one source gets at most maxConnectionsPerSource connections; another source still connects', async () => {
  const { app, port } = await serve(routes, { maxConnectionsPerSource: 3 });
  const clients: Client[] = [];
  try {
    for (let i = 0; i < 3; i++) clients.push(await client(port));
    const extra = await client(port);
    await extra.closed;
    assert.equal(extra.response(), '', 'closed on accept, unanswered');
    for (const c of clients.slice(0, 1)) {
      c.socket.write(reviewRequest('/allow'));
      assert.ok(await until(() => /HTTP\/1\.1 200/.test(c.response())), 'the held connections still work');
    }
    const other = await ask(port, reviewRequest('/allow'), '127.0.0.2');
    assert.equal(other.status, 200);
    other.client.socket.destroy();
  } finally {
    await done(clients, app);
  }
});

test('when idle keep-alive connections of one source fill the server, a new client takes the slot of one of them', async () => {
  const { app, port } = await serve(routes, { maxConnections: 20, maxConnectionsPerSource: 20 });
  const idle: Client[] = [];
  try {
    for (let i = 0; i < 20; i++) {
      const c = await client(port);
      c.socket.write(reviewRequest('/allow'));
      await until(() => /HTTP\/1\.1 200/.test(c.response()));
      idle.push(c);
    }
    const r = await ask(port, reviewRequest('/allow'), '127.0.0.2');
    assert.equal(r.status, 200, 'the newcomer is served');
    assert.ok(await until(() => idle.filter((c) => c.isClosed()).length === 1), 'the oldest idle connection made room');
    assert.ok(idle[0]!.isClosed(), 'the longest idle one');
    // The same source cannot take a slot from itself: a newcomer from the full source is closed.
    const more = await client(port);
    await more.closed;
    assert.equal(more.response(), '');
    r.client.socket.destroy();
  } finally {
    await done(idle, app);
  }
});

test('a request for an unknown path or with a wrong method is answered 404 and its connection closed', async () => {
  const { app, port } = await serve(routes);
  try {
    for (const req of ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /allow HTTP/1.1\r\nHost: x\r\n\r\n', reviewRequest('/nope')]) {
      const r = await ask(port, req);
      assert.equal(r.status, 404, req);
      assert.match(r.text, /connection: close/i);
      await r.client.closed;
    }
    const ok = await ask(port, reviewRequest('/allow'));
    assert.doesNotMatch(ok.text, /connection: close/i, 'an admission route keeps its connection');
    ok.client.socket.destroy();
  } finally {
    await app.close();
  }
});
