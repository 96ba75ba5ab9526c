import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readlink, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleFromSecretData, bundleToSecretData } from './bundle.js';
import { fsStore } from './store.js';

const bundle = { caKey: 'CAKEY', caCert: 'CACERT', key: 'KEY', cert: 'CERT' };

test('Secret data uses the upstream keys with the serving pair duplicated, base64-encoded', () => {
  const data = bundleToSecretData(bundle);
  assert.deepEqual(Object.keys(data).sort(), ['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'tls.crt', 'tls.key']);
  assert.equal(Buffer.from(data['tls.crt']!, 'base64').toString(), 'CERT');
  assert.deepEqual(bundleFromSecretData(data), bundle);
});

test('a Secret written by upstream with only key.pem/cert.pem is still readable', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  assert.deepEqual(bundleFromSecretData({ 'ca-key.pem': b64('CAKEY'), 'ca-cert.pem': b64('CACERT'), 'key.pem': b64('KEY'), 'cert.pem': b64('CERT') }), bundle);
});

test('the fs store creates once, then reports conflict, and swaps generations atomically via ..data', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kruise-certs-'));
  try {
    let t = 1000;
    const store = fsStore(dir, () => new Date(t));
    assert.equal(await store.read(), undefined);
    assert.equal(await store.create(bundle), 'created');
    assert.equal(await store.create(bundle), 'conflict');
    assert.deepEqual((await store.read())?.bundle, bundle);
    const gen1 = await readlink(join(dir, '..data'));
    t = 2000;
    await store.update({ ...bundle, cert: 'CERT2' }, undefined);
    const gen2 = await readlink(join(dir, '..data'));
    assert.notEqual(gen1, gen2);
    assert.equal(await readFile(join(dir, 'tls.crt'), 'utf8'), 'CERT2');
    assert.equal(await readlink(join(dir, 'tls.crt')), join('..data', 'tls.crt'));
    const entries = await readdir(dir);
    assert.ok(!entries.includes(gen1), 'the previous generation is removed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
