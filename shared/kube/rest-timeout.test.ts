// makeRest's timeouts against loopback stand-ins that misbehave: a TLS port that accepts TCP and never answers
// (requests fail with KubeTimeoutError), and a watch that sends events and then goes silent without closing
// (WatchIdleError), while a watch that keeps receiving events or bookmarks stays open.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { FakeClock } from '../clock.js';
import { resources } from './resources.js';
import { KubeTimeoutError, makeRest, WatchIdleError, type WatchEvent } from './rest.js';

const held: Socket[] = [];
const blackHole = createTcpServer((s) => void held.push(s));
let watchRes: ServerResponse | undefined;
const streamer = createHttpServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
  watchRes = res;
});
const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;

before(async () => {
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => streamer.listen(0, '127.0.0.1', r));
});
after(() => {
  for (const s of held) s.destroy();
  blackHole.close();
  streamer.closeAllConnections();
  streamer.close();
});

test('a server that accepts and never answers: get, list and watch each fail with KubeTimeoutError', { timeout: 20_000 }, async () => {
  const rest = makeRest({ server: `https://127.0.0.1:${port(blackHole)}`, tls: {}, authorization: () => undefined }, { timeoutMs: 100 });
  await assert.rejects(rest.get(resources.configMaps, { namespace: 'ns', name: 'x' }), (e: unknown) =>
    e instanceof KubeTimeoutError && /GET \/api\/v1\/namespaces\/ns\/configmaps\/x: no answer within 100 ms/.test(e.message));
  await assert.rejects(rest.list(resources.sidecarSets), KubeTimeoutError);
  await assert.rejects(rest.watch(resources.namespaces, {}, () => {}, new AbortController().signal), (e: unknown) =>
    e instanceof KubeTimeoutError && !(e instanceof WatchIdleError));
});

const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; !ok(); i++) {
    if (i > 500) throw new Error(`${what}: never happened`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('an open watch fails with WatchIdleError once events stop; each event or bookmark restarts the idle window', { timeout: 20_000 }, async () => {
  const clock = new FakeClock();
  // The request timeout is long and real, the idle window on the fake clock: only the idle window can end this watch.
  const rest = makeRest({ server: `http://127.0.0.1:${port(streamer)}`, tls: {}, authorization: () => undefined }, { timeoutMs: 60_000, watchIdleTimeoutMs: 300, clock });
  const seen: string[] = [];
  let opened = false;
  const watching = rest.watch(resources.namespaces, { onOpen: () => (opened = true) }, (e: WatchEvent<{ metadata?: { name?: string } }>) => seen.push(`${e.type} ${e.object.metadata?.name ?? ''}`), new AbortController().signal);
  const result: { outcome: unknown } = { outcome: 'pending' };
  void watching.then(() => (result.outcome = 'ended'), (e: unknown) => (result.outcome = e));
  await until('watch open', () => opened);
  // Four events, each 250 ms after the last on the watch's clock: 1 s in all, never 300 ms without one.
  const events = [{ type: 'ADDED', object: { metadata: { name: 'a' } } }, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '7' } } },
    { type: 'MODIFIED', object: { metadata: { name: 'a' } } }, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } }];
  for (const [i, e] of events.entries()) {
    await clock.advance(250);
    watchRes!.write(`${JSON.stringify(e)}\n`);
    await until(`event ${i}`, () => seen.length === i + 1);
  }
  await clock.advance(250);
  assert.equal(result.outcome, 'pending', 'events and bookmarks kept the watch open');
  await clock.advance(50);
  await until('watch failed', () => result.outcome !== 'pending');
  const err = result.outcome as unknown;
  assert.ok(err instanceof WatchIdleError, `want WatchIdleError, got ${String(err)}`);
  assert.match(err.message, /WATCH \/api\/v1\/namespaces\?watch=true&allowWatchBookmarks=true: no event or bookmark within 300 ms/);
  assert.deepEqual(seen, ['ADDED a', 'BOOKMARK ', 'MODIFIED a', 'BOOKMARK ']);
});
