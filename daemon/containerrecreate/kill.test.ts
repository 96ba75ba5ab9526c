import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerRecreateRequestContainer } from '../../shared/api/container-recreate-request.js';
import { CriError } from '../cri/errors.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { killContainer, type CrrEvent, type KillTarget } from './kill.js';
import { resolvePort, type HttpGetRequest } from './prestop.js';

const pod = { namespace: 'default', name: 'web-0', uid: 'u1' };

function setup(container: ContainerRecreateRequestContainer, graceSeconds?: number) {
  const rt = new FakeRuntime();
  rt.addContainer({ id: 'c1', name: container.name });
  const events: CrrEvent[] = [];
  let now = 0;
  const deps = { runtime: rt, emitEvent: (e: CrrEvent) => events.push(e), now: () => now };
  const target: KillTarget = { pod, container, criId: 'c1', crrName: 'crr-1', graceSeconds };
  return { rt, events, deps, target, advance: (ms: number) => (now += ms) };
}

test('a plain kill emits Killing on the pod container and stops with the grace period', async () => {
  const { rt, events, deps, target } = setup({ name: 'app' }, 20);
  await killContainer(deps, target);
  assert.deepEqual(rt.callsOf('stopContainer'), [['c1', 20]]);
  assert.deepEqual(events, [{
    involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u1', fieldPath: 'spec.containers{app}' },
    type: 'Normal', reason: 'Killing', message: 'Stopping container app by ContainerRecreateRequest crr-1',
  }]);
});

test('no grace period in the strategy means 30 s; 0 means the 2 s minimum', async () => {
  const a = setup({ name: 'app' });
  await killContainer(a.deps, a.target);
  assert.deepEqual(a.rt.callsOf('stopContainer'), [['c1', 30]]);
  const b = setup({ name: 'app' }, 0);
  await killContainer(b.deps, b.target);
  assert.deepEqual(b.rt.callsOf('stopContainer'), [['c1', 2]]);
});

test('an exec preStop runs through ExecSync first, and its whole seconds come off the grace period', async () => {
  const s = setup({ name: 'app', preStop: { exec: { command: ['sh', '-c', 'echo bye > /tmp/bye'] } } }, 10);
  s.rt.execHandler = () => { s.advance(3_700); return { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0 }; };
  await killContainer(s.deps, s.target);
  assert.deepEqual(s.rt.calls.map((c) => c.method), ['execSync', 'stopContainer']);
  assert.deepEqual(s.rt.callsOf('execSync'), [['c1', ['sh', '-c', 'echo bye > /tmp/bye'], 10]]);
  assert.deepEqual(s.rt.callsOf('stopContainer'), [['c1', 7]]);
  assert.deepEqual(s.events.map((e) => e.reason), ['Killing']);
});

test('a failing exec hook emits FailedPreStopHook with its output and the stop proceeds', async () => {
  const s = setup({ name: 'app', preStop: { exec: { command: ['false'] } } }, 10);
  s.rt.execHandler = () => ({ stdout: Buffer.from('out\n'), stderr: Buffer.from('err\n'), exitCode: 1 });
  await killContainer(s.deps, s.target);
  assert.deepEqual(s.events.map((e) => [e.type, e.reason, e.message]), [
    ['Normal', 'Killing', 'Stopping container app by ContainerRecreateRequest crr-1'], ['Warning', 'FailedPreStopHook', 'out\nerr\n']]);
  assert.equal(s.rt.callsOf('stopContainer').length, 1);
});

test('a hook that throws (exec RPC failed) is a failed hook, not a failed kill', async () => {
  const s = setup({ name: 'app', preStop: { exec: { command: ['x'] } } }, 10);
  s.rt.failNext('execSync', new CriError('unavailable', 'RuntimeService/ExecSync', 'connection refused'));
  await killContainer(s.deps, s.target);
  assert.equal(s.events[1]?.message, 'RuntimeService/ExecSync: connection refused');
  assert.equal(s.rt.callsOf('stopContainer').length, 1);
});

test('the grace period left after a long hook never goes under 2 s', async () => {
  const s = setup({ name: 'app', preStop: { exec: { command: ['sleep', '9'] } } }, 5);
  s.rt.execHandler = () => { s.advance(5_000); return { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0 }; };
  await killContainer(s.deps, s.target);
  assert.deepEqual(s.rt.callsOf('stopContainer'), [['c1', 2]]);
});

test('with grace 0 the hook is skipped', async () => {
  const s = setup({ name: 'app', preStop: { exec: { command: ['x'] } } }, 0);
  await killContainer(s.deps, s.target);
  assert.equal(s.rt.callsOf('execSync').length, 0);
});

test('httpGet without a host fails as upstream does (no pod IP in the CRI view)', async () => {
  const s = setup({ name: 'app', preStop: { httpGet: { port: 8080, path: '/stop' } } }, 10);
  await killContainer(s.deps, s.target);
  assert.equal(s.events[1]?.message, 'failed to find networking container');
});

test('httpGet with a host and a named port is sent from the daemon', async () => {
  const seen: HttpGetRequest[] = [];
  const s = setup({ name: 'app', preStop: { httpGet: { host: '127.0.0.1', port: 'admin', path: 'quit', httpHeaders: [{ name: 'X-A', value: '1' }] } }, ports: [{ name: 'admin', containerPort: 9000 }] }, 10);
  await killContainer({ ...s.deps, httpGet: async (r) => { seen.push(r); return { status: 500, body: 'nope' }; } }, s.target);
  assert.deepEqual(seen, [{ url: 'http://127.0.0.1:9000/quit', headers: { 'X-A': '1' }, timeoutMs: 10_000 }]);
  assert.equal(s.events[1]?.message, 'HTTP 500: nope');
});

test('tcpSocket preStop is an invalid handler', async () => {
  const s = setup({ name: 'app', preStop: { tcpSocket: { port: 80 } } }, 10);
  await killContainer(s.deps, s.target);
  assert.equal(s.events[1]?.message, 'invalid handler');
});

test('a StopContainer failure rejects', async () => {
  const s = setup({ name: 'app' }, 10);
  s.rt.failNext('stopContainer', new CriError('unavailable', 'RuntimeService/StopContainer', 'connection refused'));
  await assert.rejects(killContainer(s.deps, s.target), /StopContainer: connection refused/);
});

test('resolvePort: numbers, numeric strings, names, and nonsense', () => {
  const ports = [{ name: 'http', containerPort: 8080 }];
  assert.equal(resolvePort(80, ports), 80);
  assert.equal(resolvePort('81', ports), 81);
  assert.equal(resolvePort('http', ports), 8080);
  assert.equal(resolvePort('nope', ports), undefined);
  assert.equal(resolvePort(0, ports), undefined);
  assert.equal(resolvePort(undefined, ports), undefined);
});
