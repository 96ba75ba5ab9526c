import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startInformer, type ListWatchSource } from './informer.js';
import { silentLogger } from '../log.js';

type Obj = { metadata: { name: string; namespace?: string } };

/** A ListWatch-shaped fake: each start() consumes one scripted outcome ('ok' or an error). */
function fakeSource(outcomes: ('ok' | Error)[], items: Obj[]) {
  const cbs: Record<string, ((x?: any) => void)[]> = { error: [], add: [], update: [], delete: [], alive: [] };
  const state = { starts: 0, stopped: false };
  const source: ListWatchSource<Obj> & { state: typeof state; emit: (v: string, x?: unknown) => void } = {
    state,
    on: (verb: string, cb: (x?: any) => void) => void cbs[verb]!.push(cb),
    start: async () => {
      const o = outcomes[state.starts++] ?? 'ok';
      if (o !== 'ok') cbs.error!.forEach((cb) => cb(o));
    },
    stop: async () => void (state.stopped = true),
    list: () => items,
    get: (name, ns) => items.find((i) => i.metadata.name === name && i.metadata.namespace === ns),
    emit: (v, x) => cbs[v]!.forEach((cb) => cb(x)),
  };
  return source;
}

test('a source that fails twice is restarted with growing backoff and then reports synced', async () => {
  const ac = new AbortController();
  const delays: number[] = [];
  const src = fakeSource([new Error('boom'), new Error('boom'), 'ok'], [{ metadata: { name: 'a', namespace: 'ns' } }]);
  const cache = startInformer(src, ac.signal, { log: silentLogger(), delay: async (ms) => void delays.push(ms), initialBackoffMs: 100 });
  await cache.synced;
  assert.equal(cache.isSynced(), true);
  assert.equal(src.state.starts, 3);
  assert.deepEqual(delays, [100, 200]);
  assert.equal(cache.get('ns/a')?.metadata.name, 'a');
  assert.equal(cache.get('a'), undefined);
  ac.abort();
  assert.equal(src.state.stopped, true);
});

test('a watch that breaks after sync is restarted and backoff resets after success', async () => {
  const ac = new AbortController();
  const delays: number[] = [];
  const src = fakeSource(['ok', 'ok'], []);
  const cache = startInformer(src, ac.signal, { log: silentLogger(), delay: async (ms) => void delays.push(ms), initialBackoffMs: 50 });
  await cache.synced;
  src.emit('error', new Error('connection reset'));
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(src.state.starts, 2);
  assert.deepEqual(delays, [50]);
  ac.abort();
});

test('change callbacks see add, update and delete events, with the verb', async () => {
  const ac = new AbortController();
  const src = fakeSource(['ok'], []);
  const cache = startInformer(src, ac.signal, { log: silentLogger(), delay: async () => {} });
  const seen: string[] = [];
  cache.onChange((o, verb) => seen.push(`${verb} ${o.metadata.name}`));
  src.emit('add', { metadata: { name: 'x' } });
  src.emit('update', { metadata: { name: 'x' } });
  src.emit('delete', { metadata: { name: 'y' } });
  assert.deepEqual(seen, ['add x', 'update x', 'delete y']);
  ac.abort();
});

test('silentForMs counts from the start, resets on each sign of life (start, alive), and grows while the source is quiet', async () => {
  const ac = new AbortController();
  let now = 1_000;
  // The first start fails: nothing heard, the silence counts from the informer's start.
  const src = fakeSource([new Error('no route'), 'ok'], []);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const cache = startInformer(src, ac.signal, { log: silentLogger(), now: () => now, delay: () => held });
  now += 40_000;
  assert.equal(cache.silentForMs?.(), 40_000, 'never heard: counted from the start');
  release();
  await cache.synced;
  assert.equal(cache.silentForMs?.(), 0, 'a successful start (list + watch open) is hearing from the apiserver');
  now += 90_000;
  assert.equal(cache.silentForMs?.(), 90_000);
  src.emit('alive');
  assert.equal(cache.silentForMs?.(), 0, 'an event or bookmark');
  now += 5_000;
  assert.equal(cache.silentForMs?.(), 5_000);
  ac.abort();
});
