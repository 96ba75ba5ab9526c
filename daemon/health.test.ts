import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDaemonMetrics } from './metrics.js';
import { startHealthServer, syncedCheck, type HealthCheck, type HealthServer } from './health.js';

let checks: HealthCheck[] = [];
let server: HealthServer;
const metrics = createDaemonMetrics();
const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

before(async () => {
  server = await startHealthServer({ host: '127.0.0.1', port: 0, checks: () => checks, registry: metrics.registry, log: { warn: () => undefined } });
});
after(() => server.close());

test('healthz is ok when every check passes', async () => {
  checks = [syncedCheck('nodeImageInformerSynced', () => true), { name: 'cri', check: async () => undefined }];
  const res = await fetch(url('/healthz'));
  assert.deepEqual([res.status, await res.text()], [200, 'ok']);
});

test('healthz names the first failing check in upstream words', async () => {
  checks = [syncedCheck('nodeImageInformerSynced', () => false), { name: 'cri', check: async () => { throw new Error('unreachable'); } }];
  const res = await fetch(url('/healthz'));
  assert.deepEqual([res.status, await res.text()], [500, 'check nodeImageInformerSynced failed, err: not synced']);
  checks = [{ name: 'criReachable', check: async () => { throw new Error('connect ENOENT'); } }];
  assert.equal(await (await fetch(url('/healthz'))).text(), 'check criReachable failed, err: connect ENOENT');
});

test('metrics serves the daemon registry in the Prometheus text format', async () => {
  metrics.crrOutcomes.inc({ result: 'Succeeded' });
  const res = await fetch(url('/metrics'));
  const body = await res.text();
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
  assert.match(body, /kruise_daemon_crr_outcomes_total\{result="Succeeded"\} 1/);
  assert.match(body, /kruise_daemon_image_pulls_in_flight 0/);
  assert.equal((await fetch(url('/nope'))).status, 404);
});
