// Worker timing and publication rules (spec §6.3) with an injected clock and the fake CRI runtime.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Probe } from '@kubernetes/client-node';
import pino from 'pino';
import { FakeClock } from '../../shared/clock.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { ProbeResults, type ProbeKey } from './results.js';
import { MAX_WAIT_MS } from './prober.js';
import { POD_UID_LABEL, ProbeWorker } from './worker.js';

const key: ProbeKey = { podNs: 'ns', podName: 'pod-1', podUid: 'uid-1', podIP: '10.0.0.1', containerName: 'main', probeName: 'ppm#healthy' };
const nsOf = (ms: number) => BigInt(ms) * 1_000_000n;

function setup(opts: { daemonAgeMs?: number; random?: number } = {}) {
  const clock = new FakeClock();
  const rt = new FakeRuntime();
  const published: Array<[string, string, number]> = [];
  const results = new ProbeResults({ clock, onStored: () => {} });
  const set = results.set.bind(results);
  results.set = (id, k, state, msg) => { published.push([state, msg, clock.now()]); return set(id, k, state, msg); };
  let exitCode = 0;
  rt.execHandler = () => ({ stdout: Buffer.from('out'), stderr: Buffer.from('err'), exitCode });
  const addMain = (id: string, state: 'running' | 'exited' = 'running', startedMsAgo = 3_600_000) =>
    rt.addContainer({ id, name: 'main', state, labels: { [POD_UID_LABEL]: 'uid-1' }, createdAtNs: nsOf(clock.now()), startedAtNs: nsOf(clock.now() - startedMsAgo) });
  const start = clock.now();
  const observed: string[] = [];
  const worker = (probe: V1Probe) => new ProbeWorker({
    runtime: rt, results, clock, random: () => opts.random ?? 0, daemonStartMs: start - (opts.daemonAgeMs ?? 3_600_000),
    log: pino({ level: 'silent' }), observe: (kind, result) => observed.push(`${kind}:${result}`),
  }, key, probe);
  return { clock, rt, results, published, addMain, worker, start, observed, fail: (v: boolean) => { exitCode = v ? 1 : 0; } };
}

const execProbe = (extra: V1Probe = {}): V1Probe => ({ exec: { command: ['/check.sh'] }, ...extra });

test('first probe at once, then every max(periodSeconds, 1) s; the first tick publishes Unknown then the result', async () => {
  const s = setup();
  s.addMain('c1');
  const w = s.worker(execProbe({ periodSeconds: 0 }));
  const done = w.run();
  await s.clock.advance(0);
  assert.deepEqual(s.published.map(([st, m, t]) => [st, m, t - s.start]), [['Unknown', '', 0], ['Succeeded', 'out', 0]]);
  await s.clock.advance(2_999);
  assert.equal(s.rt.callsOf('execSync').length, 3);
  assert.deepEqual(s.observed.slice(0, 2), ['exec:succeeded', 'exec:succeeded']);
  w.stop();
  await done;
  assert.equal(s.results.size, 0);
});

test('a daemon that started less than a period ago spreads the first probe by random() x period', async () => {
  const s = setup({ daemonAgeMs: 1_000, random: 0.25 });
  s.addMain('c1');
  const w = s.worker(execProbe({ periodSeconds: 10 }));
  const done = w.run();
  await s.clock.advance(2_499);
  assert.equal(s.rt.callsOf('execSync').length, 0);
  await s.clock.advance(1);
  assert.equal(s.rt.callsOf('execSync').length, 1);
  w.stop();
  await done;
});

test('failureThreshold 3: Failed is published on the third failure in a row, then every tick; successThreshold 0 means 1', async () => {
  const s = setup();
  s.addMain('c1');
  const w = s.worker(execProbe({ periodSeconds: 1, failureThreshold: 3, successThreshold: 0 }));
  s.fail(true);
  const done = w.run();
  await s.clock.advance(1_000);
  assert.deepEqual(s.published.map(([st]) => st), ['Unknown']);
  await s.clock.advance(1_000);
  assert.deepEqual(s.published.map(([st, m]) => `${st}:${m}`), ['Unknown:', 'Failed:err']);
  await s.clock.advance(1_000);
  assert.equal(s.published.length, 3);
  s.fail(false);
  await s.clock.advance(1_000);
  assert.deepEqual(s.published.at(-1)!.slice(0, 2), ['Succeeded', 'out']);
  w.stop();
  await done;
});

test('initialDelaySeconds (min 1) counts from the container start; a never-started container passes the gate', async () => {
  const s = setup();
  s.addMain('c1', 'running', 0);
  const w = s.worker(execProbe({ periodSeconds: 1, initialDelaySeconds: 3 }));
  const done = w.run();
  await s.clock.advance(2_000);
  assert.equal(s.rt.callsOf('execSync').length, 0);
  await s.clock.advance(1_000);
  assert.equal(s.rt.callsOf('execSync').length, 1);
  w.stop();
  await done;

  const z = setup();
  z.rt.addContainer({ id: 'c0', name: 'main', labels: { [POD_UID_LABEL]: 'uid-1' }, startedAtNs: 0n });
  const w0 = z.worker(execProbe({ initialDelaySeconds: 100 }));
  await w0.tick();
  assert.equal(z.rt.callsOf('execSync').length, 1);
  w0.stop();
});

test('the newest container of that name is probed; a new container id publishes Unknown again', async () => {
  const s = setup();
  s.addMain('old');
  await s.clock.advance(5_000);
  s.addMain('new');
  const w = s.worker(execProbe());
  await w.tick();
  assert.deepEqual(s.rt.callsOf('execSync')[0][0], 'new');
  s.rt.containers.delete('new');
  await w.tick();
  assert.deepEqual(s.published.map(([st]) => st), ['Unknown', 'Succeeded', 'Unknown', 'Succeeded']);
  assert.equal(s.results.get(key)!.containerId, 'old');
  w.stop();
});

test('a container that is not running publishes Failed "Non-running" at once and is not probed', async () => {
  const s = setup();
  s.addMain('c1', 'exited');
  const w = s.worker(execProbe({ failureThreshold: 5 }));
  await w.tick();
  assert.deepEqual(s.published.map(([st, m]) => `${st}:${m}`), ['Unknown:', 'Failed:Container(main) is Non-running']);
  assert.equal(s.rt.callsOf('execSync').length, 0);
  w.stop();
});

test('no container, a CRI error or a handler error publishes nothing', async () => {
  const s = setup();
  const w = s.worker(execProbe());
  await w.tick();
  s.addMain('c1');
  s.rt.failNext('listContainers', new Error('unavailable'));
  await w.tick();
  assert.equal(s.published.length, 0);
  const g = s.worker({ grpc: { port: 1 } });
  await g.tick();
  assert.deepEqual(s.published.map(([st]) => st), ['Unknown']);
  w.stop();
  g.stop();
});

test('a new handler resets the result to Unknown; a new period applies from the next tick', async () => {
  const s = setup();
  s.addMain('c1');
  const w = s.worker(execProbe({ periodSeconds: 10 }));
  const done = w.run();
  await s.clock.advance(0);
  w.updateSpec(execProbe({ periodSeconds: 10, timeoutSeconds: 5 }));
  assert.equal(s.results.get(key)!.state, 'Succeeded');
  w.updateSpec({ exec: { command: ['/other.sh'] }, periodSeconds: 2 });
  assert.equal(s.results.get(key)!.state, 'Unknown');
  await s.clock.advance(10_000);
  const t = s.rt.callsOf('execSync').length;
  await s.clock.advance(2_000);
  assert.equal(s.rt.callsOf('execSync').length, t + 1);
  assert.deepEqual(s.rt.callsOf('execSync').at(-1)![1], ['/other.sh']);
  w.stop();
  await done;
});

test('a period past the timer range waits at most 2^31-1 ms (Node would fire such a timer after 1 ms)', async () => {
  const s = setup({ daemonAgeMs: 0, random: 0.999 });
  s.addMain('c1');
  const clock = s.clock;
  const asked: number[] = [];
  const setTimeout = clock.setTimeout.bind(clock);
  clock.setTimeout = (fn, ms) => { asked.push(ms); return setTimeout(fn, ms); };
  const w = s.worker(execProbe({ periodSeconds: 2_147_483_647 }));
  const done = w.run();
  await clock.advance(MAX_WAIT_MS);
  await clock.advance(0);
  assert.ok(asked.length >= 2 && asked.every((ms) => ms <= MAX_WAIT_MS), JSON.stringify(asked));
  assert.equal(s.rt.callsOf('execSync').length, 1);
  w.stop();
  await done;
});
