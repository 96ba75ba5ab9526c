// The httpGet handler against a real loopback server.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { httpProbe, MAX_BODY_BYTES } from './http-probe.js';
import { newProbeRequest } from './http-request.js';

let server: Server;
let port = 0;
const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

before(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const path = (req.url ?? '').split('?')[0];
    if (path === '/ok') return res.end('healthy');
    if (path === '/big') return res.end('x'.repeat(MAX_BODY_BYTES * 3));
    if (path === '/fail') { res.statusCode = 503; return res.end('down'); }
    if (path === '/hop') { res.statusCode = 302; res.setHeader('Location', '/ok'); return res.end(); }
    if (path === '/loop') { res.statusCode = 302; res.setHeader('Location', '/loop'); return res.end(); }
    if (path === '/away') { res.statusCode = 301; res.setHeader('Location', 'http://example.invalid/'); return res.end('moved'); }
    if (path === '/slow') return setTimeout(() => res.end('late'), 2_000);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => { server.closeAllConnections(); server.close(); });

const req = (path: string, headers: Array<{ name: string; value: string }> = []) => newProbeRequest({ port, path, httpHeaders: headers }, '127.0.0.1');

test('200 is a success whose message is the body; the request carries the probe headers', async () => {
  seen.length = 0;
  assert.deepEqual(await httpProbe(req('/ok?x=1', [{ name: 'x-custom', value: 'v' }]), 1000), { result: 'success', message: 'healthy' });
  assert.equal(seen[0].url, '/ok?x=1');
  assert.equal(seen[0].headers['user-agent'], 'kube-probe');
  assert.equal(seen[0].headers.accept, '*/*');
  assert.equal(seen[0].headers['x-custom'], 'v');
  assert.equal(seen[0].headers['accept-encoding'], undefined);
  assert.equal(seen[0].headers.connection, 'close');
});

test('a Host header sets the request host', async () => {
  seen.length = 0;
  await httpProbe(req('/ok', [{ name: 'Host', value: 'svc.example' }]), 1000);
  assert.equal(seen[0].headers.host, 'svc.example');
});

test('the body is read up to 10 KiB only', async () => {
  const r = await httpProbe(req('/big'), 1000);
  assert.equal(r.result, 'success');
  assert.equal(r.message.length, MAX_BODY_BYTES);
});

test('a status outside 2xx/3xx fails with the status code', async () => {
  assert.deepEqual(await httpProbe(req('/fail'), 1000), { result: 'failure', message: 'HTTP probe failed with statuscode: 503' });
});

test('a redirect to the same host is followed; to another host it is a warning with the body', async () => {
  assert.deepEqual(await httpProbe(req('/hop'), 1000), { result: 'success', message: 'healthy' });
  assert.deepEqual(await httpProbe(req('/away'), 1000), { result: 'warning', message: 'Probe terminated redirects, Response body: moved' });
});

test('more than 10 redirects is a client error', async () => {
  seen.length = 0;
  const r = await httpProbe(req('/loop'), 2000);
  assert.equal(r.result, 'failure');
  assert.match(r.message, /^Get "http:\/\/127\.0\.0\.1:\d+\/loop": stopped after 10 redirects$/);
  assert.equal(seen.length, 10);
});

test('a refused connection and a timeout fail with Go-shaped client errors', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const freePort = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const refused = await httpProbe(newProbeRequest({ port: freePort, path: '/health' }, '127.0.0.1'), 1000);
  assert.deepEqual(refused, { result: 'failure', message: `Get "http://127.0.0.1:${freePort}/health": dial tcp 127.0.0.1:${freePort}: connect: connection refused` });
  const slow = await httpProbe(req('/slow'), 200);
  assert.equal(slow.result, 'failure');
  assert.match(slow.message, /^Get "http:\/\/127\.0\.0\.1:\d+\/slow": context deadline exceeded/);
});
