// Readiness of the self-signed source when its syncs fail (review N-L5), and resync() on demand (issue 24 class 7).
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import { silentLogger } from '../shared/log.js';
import { memoryCaBundle } from './ca-bundle.js';
import type { CaBundleTarget } from './ca-bundle.js';
import type { Clock } from './clock.js';
import { generateCA, generateServingCert } from './generate.js';
import { memoryStore } from './memory-store.js';
import { RESYNC_MIN_INTERVAL_MS, selfSignedSource } from './self-signed-source.js';
import type { CertStore } from './store.js';

const DAY = 24 * 3600 * 1000;
const YEAR = 365 * DAY;
const GRACE = 120_000;
const host = 'kruise-webhook-service.kruise-system.svc';
/** A CA in the last half year of its life, so the next renewal rotates the CA as well as the leaf. */
const nearEndCA = { ca: (now: Date) => generateCA(new Date(now.getTime() - 9.5 * YEAR)), serving: generateServingCert };

function fakeClock(start: Date): Clock & { advance(ms: number): void } {
  let t = start.getTime();
  return { now: () => new Date(t), sleep: async () => {}, advance: (ms) => void (t += ms) };
}

/** `inner`, except that every call throws while `broken.on` (the replica lost the apiserver, or its RBAC). */
function breakable(store: CertStore, caBundle: CaBundleTarget, broken: { store: boolean; read: boolean; write: boolean }) {
  const guard = <A extends unknown[], R>(what: keyof typeof broken, f: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    if (broken[what]) throw new Error(`${what}: apiserver unreachable`);
    return f(...a);
  };
  return {
    store: { read: guard('store', store.read), create: guard('store', store.create), update: guard('store', store.update) } satisfies CertStore,
    caBundle: { read: guard('read', caBundle.read), write: guard('write', caBundle.write) } satisfies CaBundleTarget,
  };
}

const trustedBy = (leafPem: string | undefined, cas: string[]) =>
  !!leafPem && cas.some((c) => new X509Certificate(leafPem).verify(new X509Certificate(c).publicKey));

test('two replicas, B cut off from the moment A publishes a rotated CA: B is unready before its CA leaves caBundle, A stays ready', async () => {
  const clock = fakeClock(new Date('2026-01-01T00:00:00Z'));
  const store = memoryStore();
  const caBundle = memoryCaBundle();
  const broken = { store: false, read: false, write: false };
  const cut = breakable(store, caBundle, broken);
  const opts = { host, renewBeforeMs: 180 * DAY, clock, log: silentLogger(), resyncMs: 60_000, graceMs: GRACE, generate: nearEndCA };
  const a = selfSignedSource({ ...opts, store, caBundle });
  const b = selfSignedSource({ ...opts, store: cut.store, caBundle: cut.caBundle });
  await a.syncOnce();
  await b.syncOnce();
  assert.equal(b.healthy(), true);

  clock.advance(3 * DAY);
  await a.syncOnce();
  assert.ok(store.get()?.state.next, 'A renewed: the new CA is published next to the old one');
  Object.assign(broken, { store: true, read: true, write: true });

  // Every 5 s for 6 grace periods, both replicas sync (B's always fail), as the review's simulation did.
  let bUnreadyAt: number | undefined;
  let dropped = false;
  for (let t = 0; t <= 6 * GRACE; t += 5_000) {
    clock.advance(5_000);
    await a.syncOnce();
    await b.syncOnce().catch(() => {});
    const bServes = trustedBy(b.current()?.cert, caBundle.cas());
    if (!bServes) dropped = true;
    // A ready replica is one whose leaf the apiserver trusts: never the other way round.
    assert.ok(!b.healthy() || bServes, `+${t / 1000} s: B is ready but serves a leaf whose CA is not in caBundle`);
    assert.ok(a.healthy(), `+${t / 1000} s: A is ready`);
    if (!b.healthy()) bUnreadyAt ??= t;
  }
  assert.ok(dropped, 'the old CA did leave caBundle during the run (the case that failed handshakes)');
  assert.ok(bUnreadyAt !== undefined && bUnreadyAt <= GRACE + 5_000, `B unready one grace period after its last sync (at +${bUnreadyAt} ms)`);
  assert.match(b.problem() ?? '', /certificate sync has not succeeded for more than 120 s/);
});

test('a caBundle read without the served CA makes the replica unready at once, even when its own write then fails', async () => {
  const clock = fakeClock(new Date('2026-01-01T00:00:00Z'));
  const store = memoryStore();
  const caBundle = memoryCaBundle();
  const broken = { store: false, read: false, write: false };
  const cut = breakable(store, caBundle, broken);
  const src = selfSignedSource({ host, renewBeforeMs: 180 * DAY, clock, log: silentLogger(), graceMs: GRACE, store: cut.store, caBundle: cut.caBundle });
  await src.syncOnce();
  assert.equal(src.problem(), null);
  // Someone re-applies the configuration without its caBundle, and this replica may no longer write it.
  await caBundle.write([]);
  broken.write = true;
  await assert.rejects(src.syncOnce(), /write: apiserver unreachable/);
  assert.equal(src.healthy(), false);
  assert.equal(src.problem(), 'the CA of the served certificate is not in every webhook\'s caBundle');
  broken.write = false;
  await src.syncOnce();
  assert.equal(src.problem(), null, 'ready again once the CA is back');
});

/** A clock whose long sleeps end only when aborted (a resync would never come by itself) and short ones at once. */
function stalledClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => new Date('2026-01-01T00:00:00Z'),
    sleep: (ms, signal) => new Promise((resolve) => {
      sleeps.push(ms);
      if (signal.aborted || ms <= RESYNC_MIN_INTERVAL_MS) return void setImmediate(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    }),
  };
}

const until = async (what: string, cond: () => boolean) => {
  for (let i = 0; i < 2_000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  assert.ok(cond(), what);
};

test('resync(): a caBundle removed by someone else is written back without waiting for the resync interval', async () => {
  const clock = stalledClock();
  const caBundle = memoryCaBundle();
  const src = selfSignedSource({ store: memoryStore(), caBundle, host, renewBeforeMs: 180 * DAY, clock, log: silentLogger() });
  const stop = new AbortController();
  const running = src.start(stop.signal);
  await until('first sync', () => caBundle.cas().length === 1);
  await caBundle.write([]);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(caBundle.cas().length, 0, 'nothing comes back on its own before the resync interval');
  src.resync();
  await until('caBundle written back', () => caBundle.cas().length === 1);
  assert.ok(clock.sleeps.includes(RESYNC_MIN_INTERVAL_MS), 'the asked-for sync still kept the minimum interval');
  stop.abort();
  await running;
});

test('resync() asked while a sync runs is not lost', async () => {
  const clock = stalledClock();
  const inner = memoryCaBundle();
  let reads = 0;
  const resync = { call: () => {} };
  const caBundle: CaBundleTarget = {
    read: async () => {
      if (++reads === 1) resync.call();
      return inner.read();
    },
    write: inner.write,
  };
  const src = selfSignedSource({ store: memoryStore(), caBundle, host, renewBeforeMs: 180 * DAY, clock, log: silentLogger() });
  resync.call = src.resync;
  const stop = new AbortController();
  const running = src.start(stop.signal);
  await until('a second sync', () => reads >= 2);
  stop.abort();
  await running;
});
