// runProbe vectors of spec §6.6 and the exec handler against the fake CRI runtime.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { CriError } from '../cri/errors.js';
import { FakeRuntime } from '../cri/fake-runtime.js';
import { execProbe, MAX_EXEC_OUTPUT } from './exec-probe.js';
import { outcomeOf, runHandler } from './prober.js';

let server: Server;
let port = 0;
before(async () => {
  server = createServer((_q, s) => s.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

const target = { containerName: 'container-name', containerId: 'c1', podIP: '127.0.0.1' };

function fake(): FakeRuntime {
  const rt = new FakeRuntime();
  rt.addContainer({ id: 'c1', name: 'container-name' });
  return rt;
}

test('runProbe: tcp to a listening port succeeds, tcp port -1 fails without an error, http / to a 200 server succeeds', async () => {
  const rt = fake();
  assert.deepEqual(outcomeOf(await runHandler(rt, { tcpSocket: { port } }, target)), { state: 'Succeeded', message: '' });
  assert.equal(outcomeOf(await runHandler(rt, { tcpSocket: { port: -1 } }, target)).state, 'Failed');
  assert.deepEqual(outcomeOf(await runHandler(rt, { httpGet: { port, path: '/' } }, target)), { state: 'Succeeded', message: 'ok' });
});

test('runProbe: no handler (or grpc only) is an error naming the container', async () => {
  await assert.rejects(runHandler(fake(), {}, target), { message: 'missing probe handler for container-name' });
  await assert.rejects(runHandler(fake(), { grpc: { port: 9000 } }, target), { message: 'missing probe handler for container-name' });
});

test('http/tcp without a host on an entry without IP is an error (not a probe of the node itself)', async () => {
  await assert.rejects(runHandler(fake(), { tcpSocket: { port } }, { ...target, podIP: '' }), /no IP/);
  await assert.rejects(runHandler(fake(), { httpGet: { port } }, { ...target, podIP: '' }), /no IP/);
});

test('exec: exit 0 is a success with stdout; another exit code a failure with stderr only', async () => {
  const rt = fake();
  rt.execHandler = (_id, cmd) => cmd[0] === '/ok.sh'
    ? { stdout: Buffer.from('fine'), stderr: Buffer.from('noise'), exitCode: 0 }
    : { stdout: Buffer.from('partial'), stderr: Buffer.from('broken'), exitCode: 2 };
  assert.deepEqual(outcomeOf(await runHandler(rt, { exec: { command: ['/ok.sh'] }, timeoutSeconds: 3 }, target)), { state: 'Succeeded', message: 'fine' });
  assert.deepEqual(outcomeOf(await runHandler(rt, { exec: { command: ['/bad.sh'] } }, target)), { state: 'Failed', message: 'broken' });
  // The command runs in the container the worker found, with the clamped timeout (0 → 1 s).
  assert.deepEqual(rt.callsOf('execSync'), [['c1', ['/ok.sh'], 3], ['c1', ['/bad.sh'], 1]]);
});

test('exec: a deadline is a failure with the timeout message; another CRI error is thrown', async () => {
  const rt = fake();
  rt.failNext('execSync', new CriError('deadline-exceeded', 'RuntimeService/ExecSync', 'context deadline exceeded'));
  assert.deepEqual(await execProbe(rt, 'c1', ['sh', '-c', 'sleep 9'], 2), { result: 'failure', message: 'command timed out: "sh -c sleep 9" timed out after 2s' });
  await assert.rejects(execProbe(rt, 'gone', ['true'], 1), (err: unknown) => err instanceof CriError && err.kind === 'not-found');
});

test('exec output is read up to 10 KiB and the message is cut to 1024 bytes on a character boundary', async () => {
  const rt = fake();
  rt.execHandler = () => ({ stdout: Buffer.from('é'.repeat(MAX_EXEC_OUTPUT)), stderr: Buffer.alloc(0), exitCode: 0 });
  const raw = await execProbe(rt, 'c1', ['x'], 1);
  assert.equal(Buffer.byteLength(raw.message), MAX_EXEC_OUTPUT);
  const { message } = outcomeOf(raw);
  assert.equal(message, 'é'.repeat(512));
  assert.equal(outcomeOf({ result: 'success', message: 'a'.repeat(1024) }).message.length, 1024);
  assert.equal(outcomeOf({ result: 'success', message: 'a'.repeat(1025) }).message.length, 1024);
  // ≤ 1024 characters is kept whole even when longer in bytes (upstream counts characters).
  assert.equal(outcomeOf({ result: 'success', message: 'é'.repeat(1000) }).message, 'é'.repeat(1000));
  assert.equal(outcomeOf({ result: 'warning', message: 'w' }).state, 'Succeeded');
});
