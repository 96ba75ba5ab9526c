// The webhook's /readyz and /healthz over the admission caches' health (review H3): readiness follows sync and
// staleness, liveness only the longer staleness window.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cacheProbes } from '../shared/kube/cache-health.js';
import { silentLogger } from '../shared/log.js';
import { admissionCaches, staticCache } from './caches.js';
import { buildHealthApp } from './health.js';
import { createMetrics } from './metrics.js';

test('/readyz and /healthz follow the caches: synced, silent past the readiness window, silent past the liveness window', async (t) => {
  const silence = { namespaces: 0 };
  const namespaces = { ...staticCache([]), silentForMs: () => silence.namespaces };
  let synced = false;
  const sidecarSets = { ...staticCache([]), isSynced: () => synced };
  const caches = admissionCaches({ sidecarSets, namespaces, revisions: staticCache([]), configMaps: staticCache([]) },
    { fetchPod: async () => undefined, fetchNode: async () => undefined });
  const probes = cacheProbes(caches, { staleAfterMs: 300_000, livenessStaleAfterMs: 900_000 });
  const app = buildHealthApp({ log: silentLogger(), readiness: probes.readiness, liveness: probes.liveness, metrics: createMetrics() });
  t.after(() => app.close());
  const probe = async () => {
    const [ready, live] = await Promise.all([app.inject('/readyz'), app.inject('/healthz')]);
    return [ready.statusCode, ready.body, live.statusCode, live.body];
  };

  assert.deepEqual(await probe(), [503, 'not ready: caches not synced: sidecarSets', 200, 'ok']);
  synced = true;
  assert.deepEqual(await probe(), [200, 'ok', 200, 'ok']);
  silence.namespaces = 301_000;
  assert.deepEqual(await probe(), [503, 'not ready: caches silent for more than 300 s: namespaces (301 s)', 200, 'ok']);
  silence.namespaces = 901_000;
  assert.deepEqual(await probe(), [503, 'not ready: caches silent for more than 300 s: namespaces (901 s)', 500, 'unhealthy: caches silent for more than 900 s: namespaces (901 s)']);
  silence.namespaces = 0;
  assert.deepEqual(await probe(), [200, 'ok', 200, 'ok']);
});

test('without a liveness check /healthz only says the server answers', async (t) => {
  const app = buildHealthApp({ log: silentLogger(), readiness: () => 'x', metrics: createMetrics() });
  t.after(() => app.close());
  assert.equal((await app.inject('/healthz')).statusCode, 200);
});
