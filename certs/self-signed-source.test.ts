import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { silentLogger } from '../shared/log.js';
import type { CertBundle } from './bundle.js';
import type { Clock } from './clock.js';
import { selfSignedSource } from './self-signed-source.js';
import type { CertStore, Stored } from './store.js';

const DAY = 24 * 3600 * 1000;

function fakeClock(start: Date): Clock & { advance(ms: number): void } {
  let t = start.getTime();
  return { now: () => new Date(t), sleep: async () => {}, advance: (ms) => void (t += ms) };
}

/** In-memory store; `raceWith` simulates another replica creating the Secret between our read and create. */
function memoryStore(opts: { raceWith?: CertBundle } = {}) {
  let stored: Stored | undefined;
  let version = 0;
  const calls: string[] = [];
  const store: CertStore & { calls: string[]; get(): Stored | undefined } = {
    calls,
    get: () => stored,
    read: async () => (calls.push('read'), stored && structuredClone(stored)),
    create: async (bundle) => {
      calls.push('create');
      if (opts.raceWith) { stored = { bundle: opts.raceWith, version: String(++version) }; return 'conflict'; }
      stored = { bundle, version: String(++version) };
      return 'created';
    },
    update: async (bundle, v) => {
      calls.push('update');
      if (v !== stored?.version) throw new Error('conflict');
      stored = { bundle, version: String(++version) };
    },
  };
  return store;
}

const host = 'kruise-webhook-service.kruise-system.svc';

test('an absent store is filled once, the pair is adopted and the CA published', async () => {
  const store = memoryStore();
  const published: string[] = [];
  const changes: string[] = [];
  const src = selfSignedSource({ store, host, renewBeforeMs: 180 * DAY, clock: fakeClock(new Date('2026-01-01T00:00:00Z')), log: silentLogger(), publishCA: async (ca) => void published.push(ca) });
  src.onChange((c) => changes.push(c.cert));
  await src.syncOnce();
  await src.syncOnce();
  assert.deepEqual(store.calls, ['read', 'create', 'read']);
  assert.equal(changes.length, 1, 'a second sync with the same pair is not a change');
  assert.equal(src.current()?.cert, store.get()?.bundle.cert);
  assert.deepEqual(published, [store.get()!.bundle.caCert, store.get()!.bundle.caCert]);
  assert.equal(src.healthy(), true);
  assert.ok(new X509Certificate(src.current()!.cert).checkHost(host));
});

test('losing the create race adopts what the other replica wrote', async () => {
  const winner = memoryStore();
  const first = selfSignedSource({ store: winner, host, renewBeforeMs: 180 * DAY, clock: fakeClock(new Date('2026-01-01T00:00:00Z')), log: silentLogger() });
  await first.syncOnce();
  const store = memoryStore({ raceWith: winner.get()!.bundle });
  const src = selfSignedSource({ store, host, renewBeforeMs: 180 * DAY, clock: fakeClock(new Date('2026-01-01T00:00:00Z')), log: silentLogger() });
  await src.syncOnce();
  assert.deepEqual(store.calls, ['read', 'create', 'read']);
  assert.equal(src.current()?.cert, winner.get()!.bundle.cert);
});

test('renewal happens once the clock enters the renew-before window, with a new CA when the old one is near its end', async () => {
  const clock = fakeClock(new Date('2026-01-01T00:00:00Z'));
  const store = memoryStore();
  const src = selfSignedSource({ store, host, renewBeforeMs: 180 * DAY, clock, log: silentLogger() });
  await src.syncOnce();
  const before = store.get()!.bundle;

  clock.advance((3650 - 200) * DAY);
  await src.syncOnce();
  assert.equal(store.get()!.bundle.cert, before.cert, 'outside the window nothing changes');

  clock.advance(30 * DAY);
  await src.syncOnce();
  const after = store.get()!.bundle;
  assert.notEqual(after.cert, before.cert);
  assert.notEqual(after.caCert, before.caCert, 'CA valid for less than a year is replaced');
  assert.equal(src.current()?.cert, after.cert);
  assert.ok(src.current()!.notAfter! > new Date(clock.now().getTime() + 3000 * DAY));
});

test('a host change reissues the serving cert but keeps a still-good CA', async () => {
  const clock = fakeClock(new Date('2026-01-01T00:00:00Z'));
  const store = memoryStore();
  await selfSignedSource({ store, host, renewBeforeMs: 180 * DAY, clock, log: silentLogger() }).syncOnce();
  const before = store.get()!.bundle;
  const moved = selfSignedSource({ store, host: '10.1.2.3', renewBeforeMs: 180 * DAY, clock, log: silentLogger() });
  await moved.syncOnce();
  const after = store.get()!.bundle;
  assert.equal(after.caCert, before.caCert);
  assert.notEqual(after.cert, before.cert);
  assert.ok(new X509Certificate(after.cert).checkIP('10.1.2.3'));
});

test('start() keeps syncing until aborted and survives a failing store', async () => {
  const clock = fakeClock(new Date('2026-01-01T00:00:00Z'));
  let reads = 0;
  const ac = new AbortController();
  const store: CertStore = {
    read: async () => { reads++; if (reads === 1) throw new Error('apiserver down'); if (reads >= 3) ac.abort(); return undefined; },
    create: async () => 'created',
    update: async () => {},
  };
  const src = selfSignedSource({ store, host, renewBeforeMs: 180 * DAY, clock, log: silentLogger() });
  await src.start(ac.signal);
  assert.ok(reads >= 3);
  assert.ok(src.current(), 'a pair was obtained after the failure');
});
