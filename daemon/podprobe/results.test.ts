// The result cache vectors of spec §6.6 (results_manager_test.go).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../shared/clock.js';
import { ProbeResults, REFRESH_AFTER_MS, type ProbeKey } from './results.js';

const key: ProbeKey = { podNs: 'ns', podName: 'pod-1', podUid: 'uid-1', podIP: '1.1.1.1', containerName: 'main', probeName: 'ppm-1#healthy' };

function cache() {
  const clock = new FakeClock();
  let queued = 0;
  return { clock, results: new ProbeResults({ clock, onStored: () => queued++ }), queued: () => queued };
}

test('first result is stored and queued; the same 10 s later is not; a new state or message is; an old one is refreshed', async () => {
  const c = cache();
  assert.equal(c.results.set('c1', key, 'Succeeded', 'ok'), true);
  assert.equal(c.queued(), 1);
  await c.clock.advance(10_000);
  assert.equal(c.results.set('c1', key, 'Succeeded', 'ok'), false);
  assert.equal(c.queued(), 1);
  assert.equal(c.results.set('c1', key, 'Failed', 'ok'), true);
  assert.equal(c.results.set('c1', key, 'Failed', 'other'), true);
  assert.equal(c.queued(), 3);
  const stored = c.results.get(key)!.lastProbeTimeMs;
  await c.clock.advance(REFRESH_AFTER_MS);
  assert.equal(c.results.set('c1', key, 'Failed', 'other'), true);
  assert.equal(c.results.get(key)!.lastProbeTimeMs, stored + REFRESH_AFTER_MS);
  assert.equal(c.queued(), 4);
});

test('two probes on one container keep their own results (upstream keys by container id, §11.6)', () => {
  const c = cache();
  const other = { ...key, probeName: 'ppm-1#idle' };
  c.results.set('c1', key, 'Succeeded', '');
  c.results.set('c1', other, 'Failed', 'busy');
  assert.equal(c.results.set('c1', key, 'Succeeded', ''), false);
  assert.deepEqual(c.results.list().map((r) => [r.key.probeName, r.state]), [['ppm-1#healthy', 'Succeeded'], ['ppm-1#idle', 'Failed']]);
});

test('takeFresh returns what was stored since the last call; remove drops a result', () => {
  const c = cache();
  c.results.set('c1', key, 'Succeeded', '');
  assert.equal(c.results.takeFresh().size, 1);
  assert.equal(c.results.takeFresh().size, 0);
  c.results.remove(key);
  assert.equal(c.results.size, 0);
});
