import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, test } from 'node:test';
import { tcpProbe } from './tcp-probe.js';

let server: Server;
let port = 0;
before(async () => {
  server = createServer((s) => s.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

test('a listening port is a success with an empty message', async () => {
  assert.deepEqual(await tcpProbe('127.0.0.1', port, 1000), { result: 'success', message: '' });
});

test('port -1 is a failure, not an error', async () => {
  assert.deepEqual(await tcpProbe('127.0.0.1', -1, 1000), { result: 'failure', message: 'dial tcp: address 127.0.0.1:-1: invalid port' });
});

test('a closed port fails with the dial error', async () => {
  const tmp = createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  const free = (tmp.address() as AddressInfo).port;
  await new Promise<void>((r) => tmp.close(() => r()));
  assert.deepEqual(await tcpProbe('127.0.0.1', free, 1000), { result: 'failure', message: `dial tcp 127.0.0.1:${free}: connect: connection refused` });
});

test('no answer within the timeout is an i/o timeout', async () => {
  // TEST-NET-1 (RFC 5737) is never routed: the connect hangs (or is refused as unreachable) — either way a failure.
  const r = await tcpProbe('192.0.2.1', 81, 150);
  assert.equal(r.result, 'failure');
  assert.match(r.message, /^dial tcp 192\.0\.2\.1:81: (i\/o timeout|connect: .*)$/);
});
