import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { silentLogger } from '../shared/log.js';
import { memoryCaBundle } from './ca-bundle.js';
import type { Clock } from './clock.js';
import { generateCA, generateServingCert } from './generate.js';
import { memoryStore } from './memory-store.js';
import { selfSignedSource } from './self-signed-source.js';
import type { CertStore } from './store.js';
import { fingerprint } from './verify.js';

const DAY = 24 * 3600 * 1000;
const YEAR = 365 * DAY;
const GRACE = 120_000;
const host = 'kruise-webhook-service.kruise-system.svc';

function fakeClock(start: Date): Clock & { advance(ms: number): void } {
  let t = start.getTime();
  return { now: () => new Date(t), sleep: async () => {}, advance: (ms) => void (t += ms) };
}

/** A CA in the last half year of its life, so the next renewal must rotate the CA as well as the leaf. */
const nearEndCA = { ca: (now: Date) => generateCA(new Date(now.getTime() - 9.5 * YEAR)), serving: generateServingCert };

function replicas(n: number, opts: { store?: ReturnType<typeof memoryStore>; caBundle?: ReturnType<typeof memoryCaBundle>; generate?: typeof nearEndCA } = {}) {
  const clock = fakeClock(new Date('2026-01-01T00:00:00Z'));
  const store = opts.store ?? memoryStore();
  const caBundle = opts.caBundle ?? memoryCaBundle();
  const srcs = Array.from({ length: n }, () => selfSignedSource({ store, caBundle, host, renewBeforeMs: 180 * DAY, clock, log: silentLogger(), resyncMs: 60_000, graceMs: GRACE, ...(opts.generate ? { generate: opts.generate } : {}) }));
  /** Every replica serves a leaf whose issuer is in caBundle, and the leaf is valid for host. */
  const assertSafe = (step: string) => {
    const trusted = caBundle.cas().map((c) => new X509Certificate(c));
    for (const [i, s] of srcs.entries()) {
      const pem = s.current()?.cert;
      if (!pem) continue;
      const leaf = new X509Certificate(pem);
      assert.ok(trusted.some((ca) => leaf.verify(ca.publicKey)), `${step}: replica ${i} serves a leaf whose CA is not in caBundle`);
    }
  };
  return { clock, store, caBundle, srcs, assertSafe };
}

const caOf = (leafPem: string, cas: string[]) => cas.find((c) => new X509Certificate(leafPem).verify(new X509Certificate(c).publicKey));

test('an absent store is filled once, the CA published before the pair is served, and a second sync changes nothing', async () => {
  const { store, caBundle, srcs: [src] } = replicas(1);
  const changes: string[] = [];
  src!.onChange((c) => changes.push(c.cert));
  await src!.syncOnce();
  await src!.syncOnce();
  assert.deepEqual(store.calls, ['read', 'create', 'read']);
  assert.equal(changes.length, 1, 'a second sync with the same pair is not a change');
  assert.equal(src!.current()?.cert, store.get()?.state.current?.cert);
  assert.deepEqual(caBundle.writes, [[store.get()!.state.current!.caCert]], 'published once');
  assert.equal(src!.healthy(), true);
  assert.ok(new X509Certificate(src!.current()!.cert).checkHost(host));
  assert.ok(src!.current()!.notAfter! < new Date(Date.parse('2026-01-01T00:00:00Z') + YEAR + DAY), 'the leaf lives a year');
});

test('two replicas starting together: one create lands, both serve the same pair', async () => {
  const { store, srcs: [a, b] } = replicas(2);
  await Promise.all([a!.syncOnce(), b!.syncOnce()]);
  assert.equal(store.calls.filter((c) => c === 'create').length, 2);
  assert.equal(a!.current()?.cert, b!.current()?.cert);
  assert.equal(a!.current()?.cert, store.get()?.state.current?.cert);
});

test('a renewal with a new CA: both CAs published, the new leaf served only after the grace period, the old CA dropped after another', async () => {
  const { clock, store, caBundle, srcs: [a, b], assertSafe } = replicas(2, { generate: nearEndCA });
  await a!.syncOnce();
  await b!.syncOnce();
  const first = a!.current()!.cert;
  const ca1 = store.get()!.state.current!.caCert;
  assertSafe('installed');

  clock.advance(3 * DAY);
  await a!.syncOnce();
  const next = store.get()!.state.next!;
  assert.ok(next, 'the renewed pair is stored as next');
  assert.notEqual(fingerprint(next.caCert), fingerprint(ca1), 'a CA near its end is replaced');
  assert.deepEqual(caBundle.cas().map(fingerprint), [fingerprint(ca1), fingerprint(next.caCert)]);
  assert.equal(a!.current()!.cert, first, 'the renewing replica keeps serving the old leaf');
  assertSafe('renewed');

  clock.advance(GRACE - 1);
  await b!.syncOnce();
  assert.equal(b!.current()!.cert, first, 'not before serveFrom');
  clock.advance(1);
  await b!.syncOnce();
  assert.equal(b!.current()!.cert, next.cert, 'from serveFrom on');
  assertSafe('b switched');
  assert.equal(caBundle.cas().length, 2);
  await a!.syncOnce();
  assert.equal(a!.current()!.cert, next.cert);

  clock.advance(GRACE);
  await b!.syncOnce();
  assert.deepEqual(caBundle.cas().map(fingerprint), [fingerprint(next.caCert)], 'the old CA leaves after every replica switched');
  assert.equal(store.get()!.state.next, undefined);
  assertSafe('promoted');
});

test('a deleted Secret: the fresh CA is published next to the one still served, and served only after the grace period', async () => {
  const { clock, store, caBundle, srcs: [a, b], assertSafe } = replicas(2);
  await a!.syncOnce();
  await b!.syncOnce();
  const first = a!.current()!.cert;
  store.set(undefined);
  await a!.syncOnce();
  assert.equal(caBundle.cas().length, 2, 'old and fresh CA');
  assert.equal(a!.current()!.cert, first);
  assertSafe('recreated');
  await b!.syncOnce();
  assert.equal(b!.current()!.cert, first);
  clock.advance(GRACE);
  await b!.syncOnce();
  await a!.syncOnce();
  assert.notEqual(a!.current()!.cert, first);
  assert.equal(a!.current()!.cert, b!.current()!.cert);
  assertSafe('switched');
  clock.advance(2 * GRACE);
  await a!.syncOnce();
  assert.equal(caBundle.cas().length, 1);
  assert.equal(caOf(a!.current()!.cert, caBundle.cas()), caBundle.cas()[0]);
});

test('a corrupted Secret is treated like a deleted one, and a fresh replica waits rather than serve an unpublished CA', async () => {
  const { clock, store, caBundle, srcs: [a] } = replicas(1);
  await a!.syncOnce();
  store.set({ current: { caKey: 'x', caCert: 'garbage', key: 'y', cert: 'garbage' }, retired: [] });
  const { srcs: [c] } = replicas(1, { store, caBundle });
  await c!.syncOnce();
  assert.equal(c!.current(), undefined, 'nothing served before serveFrom');
  assert.equal(c!.healthy(), false);
  assert.equal(caBundle.cas().length, 2);
  clock.advance(GRACE);
  await a!.syncOnce();
  assert.ok(a!.current());
  assert.ok(caOf(a!.current()!.cert, caBundle.cas()));
});

test('start() keeps syncing until aborted and survives a failing store', async () => {
  const clock = fakeClock(new Date('2026-01-01T00:00:00Z'));
  let reads = 0;
  const ac = new AbortController();
  const inner = memoryStore();
  const store: CertStore = {
    read: async () => { reads++; if (reads === 1) throw new Error('apiserver down'); if (reads >= 3) ac.abort(); return inner.read(); },
    create: inner.create,
    update: inner.update,
  };
  const src = selfSignedSource({ store, caBundle: memoryCaBundle(), host, renewBeforeMs: 180 * DAY, clock, log: silentLogger() });
  await src.start(ac.signal);
  assert.ok(reads >= 3);
  assert.ok(src.current(), 'a pair was obtained after the failure');
});
