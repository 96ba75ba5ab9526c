import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidateSockets, discoverRuntimes } from './socket.js';

const existing = (...paths: string[]) => (p: string) => paths.includes(p);

test('without a flag every existing candidate is kept, in upstream probe order', () => {
  const exists = existing('/hostvarrun/crio/crio.sock', '/hostvarrun/containerd/containerd.sock', '/hostvarrun/cri-dockerd.sock');
  assert.deepEqual(candidateSockets({ exists }), [
    '/hostvarrun/containerd/containerd.sock',
    '/hostvarrun/crio/crio.sock',
    '/hostvarrun/cri-dockerd.sock',
  ]);
});

test('--socket-file is resolved under the mount point and used alone', () => {
  const exists = existing('/hostvarrun/containerd.sock', '/hostvarrun/k3s/containerd.sock');
  assert.deepEqual(candidateSockets({ socketFile: 'k3s/containerd.sock', exists }), ['/hostvarrun/k3s/containerd.sock']);
});

test('a --socket-file that does not exist yields no runtime and no fallback to candidates', () => {
  assert.deepEqual(candidateSockets({ socketFile: 'missing.sock', exists: existing('/hostvarrun/containerd.sock') }), []);
});

test('an explicit absolute socket path bypasses the mount-point convention', () => {
  assert.deepEqual(candidateSockets({ socketPath: '/tmp/x/c.sock', exists: existing('/tmp/x/c.sock') }), ['/tmp/x/c.sock']);
});

test('a different var-run directory is honoured for local runs', () => {
  assert.deepEqual(candidateSockets({ varRunDir: '/var/run', exists: existing('/var/run/containerd/containerd.sock') }), [
    '/var/run/containerd/containerd.sock',
  ]);
});

test('candidates whose probe fails are skipped and closed; survivors keep order and runtime name', async () => {
  const closed: string[] = [];
  const result = await discoverRuntimes(['/a.sock', '/b.sock', '/c.sock'], {
    connect: (p) => p,
    probe: async (c) => {
      if (c === '/b.sock') throw new Error('connection refused');
      return c === '/a.sock' ? 'containerd' : 'cri-o';
    },
    close: (c) => closed.push(c),
  });
  assert.deepEqual(result.runtimes.map((r) => [r.socketPath, r.runtimeName]), [['/a.sock', 'containerd'], ['/c.sock', 'cri-o']]);
  assert.deepEqual(result.skipped.map((s) => s.socketPath), ['/b.sock']);
  assert.deepEqual(closed, ['/b.sock']);
});
