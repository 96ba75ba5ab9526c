import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readlink, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeState, encodeState } from './state.js';
import { fsStore } from './store.js';

const current = { caKey: 'CAKEY', caCert: 'CACERT', key: 'KEY', cert: 'CERT' };
const state = { current, retired: [] };

test('the current pair uses the upstream keys with the serving pair duplicated', () => {
  const data = encodeState(state);
  assert.deepEqual(Object.keys(data).sort(), ['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'tls.crt', 'tls.key']);
  assert.equal(data['tls.crt'], 'CERT');
  assert.deepEqual(decodeState(data), state);
});

test('a Secret written by upstream with only key.pem/cert.pem is still readable', () => {
  assert.deepEqual(decodeState({ 'ca-key.pem': 'CAKEY', 'ca-cert.pem': 'CACERT', 'key.pem': 'KEY', 'cert.pem': 'CERT' }), state);
});

test('unreadable rotation metadata is left out rather than thrown', () => {
  const s = decodeState({ ...encodeState(state), 'next-tls.crt': 'X', 'next-serve-from': 'not a date', 'retired-cas.json': '{' });
  assert.deepEqual(s, state);
});

test('the fs store creates once, then reports conflict, and swaps generations atomically via ..data', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kruise-certs-'));
  try {
    let t = 1000;
    const store = fsStore(dir, () => new Date(t));
    assert.equal(await store.read(), undefined);
    assert.equal(await store.create(state), 'created');
    assert.equal(await store.create(state), 'conflict');
    assert.deepEqual((await store.read())?.state, state);
    const gen1 = await readlink(join(dir, '..data'));
    t = 2000;
    const next = { ...current, cert: 'CERT2', serveFrom: new Date(5000) };
    await store.update({ current, next, retired: [] }, undefined);
    assert.deepEqual((await store.read())?.state, { current, next, retired: [] });
    t = 3000;
    await store.update({ current: { ...current, cert: 'CERT2' }, retired: [] }, undefined);
    const gen3 = await readlink(join(dir, '..data'));
    assert.notEqual(gen1, gen3);
    assert.equal(await readFile(join(dir, 'tls.crt'), 'utf8'), 'CERT2');
    assert.equal(await readlink(join(dir, 'tls.crt')), join('..data', 'tls.crt'));
    const entries = await readdir(dir);
    assert.ok(!entries.includes(gen1), 'the previous generation is removed');
    assert.ok(!entries.includes('next-tls.crt'), 'files of a finished rotation are removed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
