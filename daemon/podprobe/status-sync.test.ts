// The status sync against an apiserver stand-in: writes only on change, no conflict with its own writes while the
// informer lags, one fresh GET + PUT on a conflict with another writer, and events once per stored result.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NodePodProbe } from '../../shared/api/node-pod-probe.js';
import { FakeClock } from '../../shared/clock.js';
import { ProbeResults, type ProbeKey } from './results.js';
import type { ProbeEvent } from './status.js';
import { statusSync, type NodePodProbeApi } from './status-sync.js';
import { demoNodePodProbe } from './testing.js';

const key = (i: number): ProbeKey => ({ podNs: 'default', podName: `pod-${i}`, podUid: `pod-${i}-uid`, podIP: `${i + 1}.${i + 1}.${i + 1}.${i + 1}`, containerName: 'main', probeName: 'ppm-1#healthy' });

/** Holds one NodePodProbe; PUT succeeds only with the current resourceVersion. */
function apiserver() {
  let obj = demoNodePodProbe();
  const puts: NodePodProbe[] = [];
  let gets = 0;
  const api: NodePodProbeApi = {
    async get() { gets++; return structuredClone(obj); },
    async replaceStatus(npp) {
      puts.push(structuredClone(npp));
      if (npp.metadata?.resourceVersion !== obj.metadata!.resourceVersion) throw Object.assign(new Error('Conflict'), { code: 409 });
      obj = { ...obj, status: npp.status, metadata: { ...obj.metadata, resourceVersion: String(Number(obj.metadata!.resourceVersion) + 1) } };
      return structuredClone(obj);
    },
  };
  const specWrite = () => { obj = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(Number(obj.metadata!.resourceVersion) + 1) } }; };
  return { api, puts, gets: () => gets, current: () => obj, specWrite };
}

function setup() {
  const s = apiserver();
  const clock = new FakeClock();
  const results = new ProbeResults({ clock, onStored: () => {} });
  const events: ProbeEvent[] = [];
  let cached = structuredClone(s.current());
  const sync = statusSync({ nodeName: 'node-1', cached: () => cached, api: s.api, results, emit: (e) => events.push(e), clock });
  return { ...s, clock, results, events, sync, setCache: (o: NodePodProbe) => { cached = structuredClone(o); } };
}

test('a new result is written once, as a status-only body guarded by resourceVersion; nothing new → no write', async () => {
  const t = setup();
  t.results.set('c1', key(1), 'Succeeded', 'ok');
  await t.sync();
  assert.equal(t.puts.length, 1);
  assert.deepEqual(Object.keys(t.puts[0]).sort(), ['apiVersion', 'kind', 'metadata', 'status']);
  assert.deepEqual(t.puts[0].metadata, { name: 'node-1', resourceVersion: '1' });
  assert.equal(t.current().status!.podProbeStatuses![0].probeStates![0].state, 'Succeeded');
  assert.equal(t.events.length, 1);
  // The informer has not seen our write yet: the next sync plans from what the write returned, not from the old copy.
  await t.sync();
  assert.equal(t.puts.length, 1);
  assert.equal(t.events.length, 1);
  t.results.set('c1', key(1), 'Failed', 'down');
  await t.sync();
  assert.deepEqual(t.puts.map((p) => p.metadata!.resourceVersion), ['1', '2']);
  assert.equal(t.gets(), 0);
});

test('a conflict with another writer is answered by one GET and one more PUT', async () => {
  const t = setup();
  t.specWrite();
  t.results.set('c1', key(0), 'Failed', 'x');
  await t.sync();
  assert.deepEqual(t.puts.map((p) => p.metadata!.resourceVersion), ['1', '2']);
  assert.equal(t.gets(), 1);
  assert.equal(t.current().status!.podProbeStatuses![0].name, 'pod-0');
});

test('a second conflict is thrown for the queue to retry with backoff; a gone object is not an error', async () => {
  const t = setup();
  const api = t.api;
  const always409: NodePodProbeApi = { get: api.get, replaceStatus: async () => { throw Object.assign(new Error('Conflict'), { code: 409 }); } };
  const results = new ProbeResults({ clock: t.clock, onStored: () => {} });
  results.set('c1', key(0), 'Failed', 'x');
  const sync = statusSync({ nodeName: 'node-1', cached: () => demoNodePodProbe(), api: always409, results, emit: () => {}, clock: t.clock });
  await assert.rejects(sync(), { message: 'update status of NodePodProbe node-1' });
  const gone = statusSync({ nodeName: 'node-1', cached: () => demoNodePodProbe(), api: { get: async () => undefined, replaceStatus: async () => { throw Object.assign(new Error('gone'), { code: 404 }); } }, results, emit: () => {}, clock: t.clock });
  await gone();
});

test('no NodePodProbe in the cache: nothing to do', async () => {
  const t = setup();
  t.results.set('c1', key(0), 'Failed', 'x');
  const sync = statusSync({ nodeName: 'node-1', cached: () => undefined, api: t.api, results: t.results, emit: () => {}, clock: t.clock });
  await sync();
  assert.equal(t.puts.length, 0);
});
