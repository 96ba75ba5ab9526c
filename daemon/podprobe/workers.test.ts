// Spec-sync vectors of spec §6.6 (pod_probe_controller_test.go TestSyncNodePodProbe).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { FakeClock } from '../../shared/clock.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { ProbeResults, probeKeyString } from './results.js';
import { demoNodePodProbe, healthyProbe, tcpProbeSpec } from './testing.js';
import { desiredProbes, ProbeWorkers } from './workers.js';

function workers() {
  const clock = new FakeClock();
  const results = new ProbeResults({ clock, onStored: () => {} });
  return { results, set: new ProbeWorkers({ runtime: new FakeRuntime(), results, clock, random: () => 0, daemonStartMs: 0, log: pino({ level: 'silent' }) }) };
}

const names = (keys: string[]) => keys.map((k) => { const [, pod, , ip, c, probe] = JSON.parse(k) as string[]; return `${pod}/${ip}/${c}/${probe}`; }).sort();

test('sync test1: workers of pods gone from the spec stop; a changed probe spec is handed to its worker', async () => {
  const { set } = workers();
  const old = demoNodePodProbe();
  old.spec!.podProbes![1].probes!.push({ name: 'ppm-1#check', containerName: 'main', probe: healthyProbe });
  old.spec!.podProbes![2].probes![0].probe = { ...tcpProbeSpec, timeoutSeconds: 9 };
  set.sync(old);
  const npp = demoNodePodProbe();
  npp.spec!.podProbes!.shift();
  const changes = set.sync(npp);
  assert.deepEqual(changes, { started: 0, updated: 1, stopped: 2 });
  assert.deepEqual(names(set.keys()), ['pod-1/2.2.2.2/main/ppm-1#healthy', 'pod-2/3.3.3.3/main/ppm-1#tcpCheck']);
  const tcpKey = set.keys().find((k) => k.includes('tcpCheck'))!;
  assert.deepEqual(set.specOf(tcpKey), tcpProbeSpec);
  await set.stopAll();
  assert.equal(set.size, 0);
});

test('sync test2: an extra probe on another container gives 4 workers', async () => {
  const { set } = workers();
  const npp = demoNodePodProbe();
  npp.spec!.podProbes![1].probes!.push({ name: 'ppm-1#check', containerName: 'nginx', probe: healthyProbe });
  assert.deepEqual(set.sync(npp), { started: 4, updated: 0, stopped: 0 });
  assert.deepEqual(names(set.keys()), ['pod-0/1.1.1.1/main/ppm-1#healthy', 'pod-1/2.2.2.2/main/ppm-1#healthy', 'pod-1/2.2.2.2/nginx/ppm-1#check', 'pod-2/3.3.3.3/main/ppm-1#tcpCheck']);
  assert.deepEqual(set.sync(npp), { started: 0, updated: 0, stopped: 0 });
  await set.stopAll();
});

test('an IP filled in later replaces the worker, and the stopped worker\'s result is dropped', async () => {
  const { set, results } = workers();
  const npp = demoNodePodProbe();
  npp.spec!.podProbes = [{ ...npp.spec!.podProbes![0], IP: '' }];
  set.sync(npp);
  const [oldKey] = [...desiredProbes(npp).values()].map((d) => d.key);
  results.set('c', oldKey, 'Unknown', '');
  npp.spec!.podProbes[0].IP = '1.1.1.1';
  assert.deepEqual(set.sync(npp), { started: 1, updated: 0, stopped: 1 });
  assert.equal(results.get(oldKey), undefined);
  assert.deepEqual(set.keys(), [probeKeyString({ ...oldKey, podIP: '1.1.1.1' })]);
  await set.stopAll();
});
