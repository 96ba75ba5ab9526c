import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { connectRuntime } from './connect.js';
import { CriError } from './errors.js';
import { FakeRuntime } from './fake-runtime.js';
import type { CriConnection } from './grpc-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'cri-connect-'));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'containerd'));
for (const f of ['containerd/containerd.sock', 'crio.sock']) writeFileSync(join(dir, f), '');

function fakes(behaviour: Record<string, 'ok' | 'down'>) {
  const closed: string[] = [];
  const connect = (p: string): CriConnection => {
    const rt = new FakeRuntime();
    rt.runtimeName = p.includes('crio') ? 'cri-o' : 'containerd';
    if (behaviour[p] === 'down') rt.failNext('listImages', new CriError('unavailable', 'ImageService/ListImages', 'connection refused'));
    return { runtime: rt, images: rt, close: () => closed.push(p) };
  };
  return { connect, closed };
}

test('discovery keeps the first runtime that answers and closes the rest', async () => {
  const { connect, closed } = fakes({});
  const r = await connectRuntime({ varRunDir: dir }, connect);
  assert.deepEqual([r.socketPath, r.runtimeName], [join(dir, 'containerd/containerd.sock'), 'containerd']);
  assert.deepEqual(closed, [join(dir, 'crio.sock')]);
});

test('a candidate that does not answer is skipped for the next one', async () => {
  const { connect } = fakes({ [join(dir, 'containerd/containerd.sock')]: 'down' });
  assert.equal((await connectRuntime({ varRunDir: dir }, connect)).runtimeName, 'cri-o');
});

test('an explicit unix:// endpoint is used alone', async () => {
  const { connect } = fakes({});
  const r = await connectRuntime({ endpoint: `unix://${join(dir, 'crio.sock')}` }, connect);
  assert.equal(r.socketPath, join(dir, 'crio.sock'));
});

test('no answering runtime is upstream\'s startup error, with the reason per socket', async () => {
  const { connect } = fakes({ [join(dir, 'crio.sock')]: 'down' });
  await assert.rejects(connectRuntime({ endpoint: join(dir, 'crio.sock') }, connect), /^Error: not found container runtime sock \(.*crio\.sock: ImageService\/ListImages: connection refused\)$/);
  await assert.rejects(connectRuntime({ socketFile: 'nope.sock', varRunDir: dir }, connect), /not found container runtime sock \(no socket file exists\)/);
});
