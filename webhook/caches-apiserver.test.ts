// The webhook's admission caches over the shared REST list-watch against loopback stand-ins for a misbehaving
// apiserver (review H3): one that accepts TCP and never answers, and one that lists, streams a few watch events and
// then goes silent without closing. Idle timers and staleness run on an injected clock; the sockets are real.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { pino } from 'pino';
import { FakeClock } from '../shared/clock.js';
import { cacheProbes } from '../shared/kube/cache-health.js';
import { informerFactory } from '../shared/kube/informer-factory.js';
import { makeRest } from '../shared/kube/rest.js';
import { startAdmissionCaches } from './caches.js';

const MIN = 60_000;
const windows = { staleAfterMs: 5 * MIN, livenessStaleAfterMs: 15 * MIN };

const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; !ok(); i++) {
    if (i > 1_000) throw new Error(`${what}: never happened`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

function capture() {
  const lines: Array<{ level: number; msg: string; informer?: string; err?: { message: string } }> = [];
  return { lines, log: pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s)) }) };
}

test('an apiserver that accepts and never answers: every cache logs the timeout and retries; not ready, then not alive', { timeout: 30_000 }, async (t) => {
  const held: Socket[] = [];
  const blackHole = createTcpServer((s) => void held.push(s));
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  const stop = new AbortController();
  t.after(() => { stop.abort(); for (const s of held) s.destroy(); blackHole.close(); });

  const clock = new FakeClock();
  const { lines, log } = capture();
  // TLS, as in a cluster: the handshake itself never completes.
  const rest = makeRest({ server: `https://127.0.0.1:${(blackHole.address() as AddressInfo).port}`, tls: {}, authorization: () => 'Bearer t' }, { timeoutMs: 100 });
  const caches = startAdmissionCaches(informerFactory({ rest, signal: stop.signal, log, now: () => clock.now() }), rest, 'kruise-system');
  const probes = cacheProbes(caches, windows);

  const retried = (name: string) => lines.filter((l) => l.informer?.startsWith(name) && l.msg === 'informer failed; restarting with backoff').length >= 2;
  for (const name of ['sidecarsets', 'namespaces', 'controllerrevisions', 'configmaps']) await until(`${name} retried`, () => retried(name));
  assert.ok(lines.every((l) => /no answer within 100 ms/.test(l.err?.message ?? '')), 'each failure is the request timeout');
  assert.ok(held.length >= 8, 'each retry is a new request');

  assert.match(probes.readiness() ?? '', /^caches not synced: sidecarSets, namespaces, revisions, configMaps$/);
  assert.equal(probes.liveness(), null, 'a fresh start is alive');
  await clock.advance(15 * MIN + 1_000);
  assert.match(probes.liveness() ?? '', /^caches silent for more than 900 s: sidecarSets \(901 s\), namespaces \(901 s\), revisions \(901 s\), configMaps \(901 s\)$/);
  await assert.rejects(caches.fetchPod('default', 'p'), (e: Error) => /get pod default\/p/.test(e.message) && /no answer within 100 ms/.test((e.cause as Error).message));
});

/** Lists each resource at version 10 and holds every watch open; the test writes the events. */
function standIn() {
  const watches: Array<{ path: string; rv: string; res: ServerResponse }> = [];
  const lists: string[] = [];
  const items: Record<string, unknown[]> = {
    '/apis/apps.kruise.io/v1beta1/sidecarsets': [{ metadata: { name: 'one', resourceVersion: '9' } }],
    '/api/v1/namespaces': [{ metadata: { name: 'default', resourceVersion: '8', labels: { team: 'a' } } }],
  };
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.searchParams.get('watch') !== 'true') {
      lists.push(url.pathname);
      res.end(JSON.stringify({ metadata: { resourceVersion: '10' }, items: items[url.pathname] ?? [] }));
      return;
    }
    res.writeHead(200);
    res.flushHeaders();
    watches.push({ path: url.pathname, rv: url.searchParams.get('resourceVersion') ?? '', res });
  });
  const send = (path: string, e: unknown) => {
    const w = watches.filter((x) => x.path === path && !x.res.writableEnded && !x.res.destroyed).at(-1);
    w!.res.write(`${JSON.stringify(e)}\n`);
  };
  return { server, watches, lists, send };
}

test('a watch that goes silent mid-stream: stale past the window, then re-watched from the last version and fresh again', { timeout: 30_000 }, async (t) => {
  const api = standIn();
  await new Promise<void>((r) => api.server.listen(0, '127.0.0.1', r));
  const stop = new AbortController();
  t.after(() => { stop.abort(); api.server.closeAllConnections(); api.server.close(); });

  const clock = new FakeClock();
  const { lines, log } = capture();
  // The idle window is 6 min here, past the 5 min readiness window, so the stale state can be observed before the
  // re-watch (the defaults are the other way round: 3 min idle, 5 min stale).
  const rest = makeRest({ server: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`, tls: {}, authorization: () => undefined },
    { timeoutMs: 60_000, watchIdleTimeoutMs: 6 * MIN, clock });
  const caches = startAdmissionCaches(informerFactory({ rest, signal: stop.signal, log, now: () => clock.now() }), rest, 'kruise-system');
  const probes = cacheProbes(caches, windows);
  const sets = '/apis/apps.kruise.io/v1beta1/sidecarsets';
  await until('four watches open', () => api.watches.length === 4);
  await until('ready', () => probes.readiness() === null);
  assert.deepEqual(caches.sidecarSets().map((s) => s.metadata?.name), ['one']);

  // A few events, then silence on every watch (the connections stay open).
  api.send(sets, { type: 'ADDED', object: { metadata: { name: 'two', resourceVersion: '11' } } });
  api.send(sets, { type: 'MODIFIED', object: { metadata: { name: 'one', resourceVersion: '12' }, spec: { v: 2 } } });
  api.send(sets, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '13' } } });
  await until('events applied', () => caches.sidecarSets().length === 2);
  await clock.advance(5 * MIN + 1_000);
  assert.match(probes.readiness() ?? '', /^caches silent for more than 300 s: sidecarSets \(301 s\), namespaces \(301 s\), revisions \(301 s\), configMaps \(301 s\)$/);
  assert.equal(probes.liveness(), null, 'not yet past the liveness window');

  // The idle window ends: each watch is dropped and re-opened from the last version it saw, without a relist.
  await clock.advance(MIN);
  await until('four new watches', () => api.watches.length === 8);
  assert.deepEqual(api.watches.slice(4).map((w) => [w.path, w.rv]).sort(), [
    ['/api/v1/namespaces', '10'], ['/api/v1/namespaces/kruise-system/configmaps', '10'],
    ['/apis/apps.kruise.io/v1beta1/sidecarsets', '13'], ['/apis/apps/v1/namespaces/kruise-system/controllerrevisions', '10'],
  ]);
  assert.equal(api.lists.length, 4, 'no relist');
  await until('re-opened watches are fresh', () => probes.readiness() === null);
  api.send(sets, { type: 'DELETED', object: { metadata: { name: 'two', resourceVersion: '14' } } });
  await until('event after the re-watch', () => caches.sidecarSets().length === 1);
  assert.deepEqual(lines, [], 'an idle watch is re-opened quietly, not reported as a failure');
});
