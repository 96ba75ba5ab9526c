// The REST list-watch source (and KubeRest.watch under it) against a loopback HTTP stand-in for the apiserver that
// keeps an event log: list then watch from the list's version, events into the store, a watch the server ends
// re-opened from the last version, 410 Gone (HTTP or ERROR event) relisted with vanished objects deleted.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { silentLogger } from '../log.js';
import { informerFactory } from './informer-factory.js';
import { restListWatch } from './list-watch.js';
import { resources } from './resources.js';
import { makeRest } from './rest.js';

type Obj = KubernetesObject;
let rv = 10;
const objects = new Map<string, Obj>();
const events: Array<{ rv: number; type: string; object: Obj }> = [];
/** Versions at or below this are "compacted": a watch from them gets 410. */
let compacted = 0;
/** How the next too-old watch is refused: an HTTP 410 or a 200 with an ERROR event. */
let goneAs: 'http' | 'event' = 'http';
const watchers = new Set<{ res: ServerResponse; from: number }>();
const seen: Array<{ url: string; ua?: string; auth?: string }> = [];

const cm = (name: string, extra: Record<string, unknown> = {}): Obj => ({ metadata: { name, namespace: 'ns', managedFields: [{ manager: 'x' }] as never, ...extra } });

function write(type: 'ADDED' | 'MODIFIED' | 'DELETED', o: Obj) {
  const object = { ...o, metadata: { ...o.metadata, resourceVersion: String(++rv) } };
  if (type === 'DELETED') objects.delete(o.metadata!.name!); else objects.set(o.metadata!.name!, object);
  events.push({ rv, type, object });
  for (const w of watchers) w.res.write(`${JSON.stringify({ type, object })}\n`);
}

function handle(req: IncomingMessage, res: ServerResponse) {
  seen.push({ url: req.url!, ua: req.headers['user-agent'], auth: req.headers.authorization });
  const url = new URL(req.url!, 'http://x');
  res.setHeader('content-type', 'application/json');
  if (url.searchParams.get('watch') !== 'true') {
    res.end(JSON.stringify({ kind: 'ConfigMapList', metadata: { resourceVersion: String(rv) }, items: [...objects.values()] }));
    return;
  }
  const from = Number(url.searchParams.get('resourceVersion') || rv);
  const gone = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' };
  if (from < compacted) {
    if (goneAs === 'http') { res.statusCode = 410; res.end(JSON.stringify(gone)); return; }
    res.write(`${JSON.stringify({ type: 'ERROR', object: gone })}\n`);
    res.end();
    return;
  }
  res.writeHead(200);
  res.flushHeaders();
  for (const e of events) if (e.rv > from) res.write(`${JSON.stringify({ type: e.type, object: e.object })}\n`);
  const w = { res, from };
  watchers.add(w);
  res.on('close', () => watchers.delete(w));
}

const server = createServer(handle);
const stop = new AbortController();
let base = '';

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => { stop.abort(); server.closeAllConnections(); server.close(); });

const until = async (what: string, ok: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('list, then every watch event in order; the server ending the watch and 410s do not lose anything', async () => {
  write('ADDED', cm('a'));
  write('ADDED', cm('b'));
  const rest = makeRest({ server: base, tls: {}, authorization: () => 'Bearer t' }, { userAgent: 'kruise-daemon/9.9.9' });
  const cache = informerFactory({ rest, signal: stop.signal, log: silentLogger() }).cache<Obj>(resources.configMaps, { namespace: 'ns', labelSelector: 'x=y' });
  const changes: string[] = [];
  cache.onChange((o, verb) => changes.push(`${verb} ${o.metadata?.name}`));
  await cache.synced;
  assert.deepEqual(cache.list().map((o) => o.metadata?.name).sort(), ['a', 'b']);
  assert.equal(cache.get('ns/a')?.metadata?.managedFields, undefined, 'managedFields are not cached');
  const watch = new URL(seen.find((s) => s.url.includes('watch=true'))!.url, base);
  assert.equal(watch.pathname, '/api/v1/namespaces/ns/configmaps');
  assert.equal(watch.searchParams.get('resourceVersion'), '12');
  assert.equal(watch.searchParams.get('labelSelector'), 'x=y');
  assert.equal(watch.searchParams.get('allowWatchBookmarks'), 'true');
  assert.ok(Number(watch.searchParams.get('timeoutSeconds')) >= 300);
  assert.ok(seen.every((s) => s.ua === 'kruise-daemon/9.9.9' && s.auth === 'Bearer t'));

  write('MODIFIED', cm('a', { labels: { v: '2' } }));
  write('ADDED', cm('c'));
  write('DELETED', cm('b'));
  await until('three events', () => changes.length === 5);
  assert.deepEqual(changes, ['add a', 'add b', 'update a', 'add c', 'delete b']);
  assert.equal(cache.get('ns/a')?.metadata?.labels?.v, '2');

  // The server ends the watch (its timeout): the next one starts after the last event seen, nothing is replayed.
  const before = seen.length;
  for (const w of watchers) w.res.end();
  await until('a new watch', () => seen.slice(before).some((s) => s.url.includes('watch=true')));
  assert.equal(new URL(seen.slice(before).find((s) => s.url.includes('watch=true'))!.url, base).searchParams.get('resourceVersion'), String(rv));
  write('ADDED', cm('d'));
  await until('d', () => changes.includes('add d'));
  assert.equal(changes.length, 6);

  // History compacted while disconnected, refused with HTTP 410 and then with an ERROR event: each time a relist,
  // which reports the object deleted meanwhile.
  for (const how of ['http', 'event'] as const) {
    goneAs = how;
    const victim = how === 'http' ? 'c' : 'd';
    compacted = rv + 1;
    for (const w of watchers) w.res.end();
    await until('watch refused', () => seen.at(-1)!.url.includes('watch=true') && watchers.size === 0);
    objects.delete(victim);
    compacted = 0;
    await until(`relisted without ${victim}`, () => changes.includes(`delete ${victim}`));
    await until('watching again', () => watchers.size === 1);
  }
  assert.deepEqual(cache.list().map((o) => o.metadata?.name).sort(), ['a']);
  write('ADDED', cm('e'));
  await until('e', () => cache.get('ns/e') !== undefined);
});

test('a broken list reports an error; stop() ends the watch', async () => {
  const rest = makeRest({ server: 'http://127.0.0.1:1', tls: {}, authorization: () => undefined });
  const source = restListWatch<Obj>(rest, resources.configMaps, {}, { list: () => rest.list(resources.configMaps) });
  const errors: unknown[] = [];
  source.on('error', (e) => errors.push(e));
  await source.start();
  assert.equal(errors.length, 1);

  const ok = makeRest({ server: base, tls: {}, authorization: () => undefined });
  const live = restListWatch<Obj>(ok, resources.configMaps, { namespace: 'ns' }, { list: () => ok.list(resources.configMaps, { namespace: 'ns' }) });
  await live.start();
  assert.equal(watchers.size, 2);
  await live.stop();
  await until('watch closed', () => watchers.size === 1);
});
