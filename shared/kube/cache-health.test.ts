import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cacheHealth, cacheProbes } from './cache-health.js';
import type { Cache } from './informer.js';

/** A cache whose sync state and silence the test sets. */
const cache = (state: { synced: boolean; silentMs?: number }): Cache<unknown> => ({
  synced: Promise.resolve(), isSynced: () => state.synced, list: () => [], get: () => undefined, onChange: () => {},
  ...(state.silentMs === undefined ? {} : { silentForMs: () => state.silentMs! }),
});

test('readiness: not ready until every cache listed, then not ready while one is silent past the window', () => {
  const a = { synced: false, silentMs: 0 };
  const b = { synced: true, silentMs: 0 };
  const named = new Map([['a', cache(a)], ['b', cache(b)], ['fixed', cache({ synced: true })]]);
  const probes = cacheProbes(cacheHealth(() => named), { staleAfterMs: 300_000, livenessStaleAfterMs: 900_000 });
  assert.equal(probes.readiness(), 'caches not synced: a');
  a.synced = true;
  assert.equal(probes.readiness(), null);
  b.silentMs = 300_000;
  assert.equal(probes.readiness(), null, 'at the window is still fresh');
  b.silentMs = 300_001;
  assert.equal(probes.readiness(), 'caches silent for more than 300 s: b (300 s)');
  assert.equal(probes.liveness(), null, 'liveness waits for its longer window');
  b.silentMs = 0;
  assert.equal(probes.readiness(), null, 'fresh again once it hears from the apiserver');
});

test('liveness: fails past the longer window, also for a cache that never listed; a cache without silentForMs never goes stale', () => {
  const never = { synced: false, silentMs: 901_000 };
  const named = new Map([['never', cache(never)], ['fixed', cache({ synced: true })]]);
  const probes = cacheProbes(cacheHealth(() => named), { staleAfterMs: 300_000, livenessStaleAfterMs: 900_000 });
  assert.equal(probes.liveness(), 'caches silent for more than 900 s: never (901 s)');
  assert.equal(probes.readiness(), 'caches not synced: never');
  named.set('late', cache({ synced: true, silentMs: 1_000_000 }));
  assert.equal(probes.liveness(), 'caches silent for more than 900 s: never (901 s), late (1000 s)', 'caches added later count');
});
