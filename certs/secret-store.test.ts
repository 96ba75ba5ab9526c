import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import { secretStore } from './store.js';

/** Just the three Secret calls the store makes, over an in-memory map, with ApiException-like error codes. */
function fakeCore() {
  const secrets = new Map<string, V1Secret>();
  let rv = 0;
  const err = (code: number) => Object.assign(new Error(`HTTP ${code}`), { code });
  const core = {
    readNamespacedSecret: async ({ namespace, name }: { namespace: string; name: string }) => {
      const s = secrets.get(`${namespace}/${name}`);
      if (!s) throw err(404);
      return structuredClone(s);
    },
    createNamespacedSecret: async ({ namespace, body }: { namespace: string; body: V1Secret }) => {
      const key = `${namespace}/${body.metadata!.name}`;
      if (secrets.has(key)) throw err(409);
      secrets.set(key, { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } });
      return body;
    },
    // The apiserver's own check: a replace carrying a stale resourceVersion is a 409.
    replaceNamespacedSecret: async ({ namespace, name, body }: { namespace: string; name: string; body: V1Secret }) => {
      const cur = secrets.get(`${namespace}/${name}`);
      if (!cur) throw err(404);
      if (body.metadata?.resourceVersion !== cur.metadata?.resourceVersion) throw err(409);
      secrets.set(`${namespace}/${name}`, { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } });
      return body;
    },
  };
  return { core: core as unknown as CoreV1Api, secrets };
}

const current = { caKey: 'CAKEY', caCert: 'CACERT', key: 'KEY', cert: 'CERT' };
const state = { current, retired: [] };
const next = { caKey: 'CAKEY2', caCert: 'CACERT2', key: 'KEY2', cert: 'CERT2', serveFrom: new Date('2026-01-01T00:02:00Z') };

test('an absent Secret reads as undefined, is created once, and a second create is a conflict', async () => {
  const { core, secrets } = fakeCore();
  const store = secretStore(core, 'kruise-system', 'kruise-webhook-certs');
  assert.equal(await store.read(), undefined);
  assert.equal(await store.create(state), 'created');
  assert.equal(await store.create(state), 'conflict');
  const stored = await store.read();
  assert.deepEqual(stored?.state, state);
  assert.equal(stored?.version, '1');
  assert.deepEqual(Object.keys(secrets.get('kruise-system/kruise-webhook-certs')!.data!).sort(), ['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'tls.crt', 'tls.key']);
});

test('an update with a stale version is refused instead of clobbering another replica', async () => {
  const { core } = fakeCore();
  const store = secretStore(core, 'ns', 's');
  await store.create(state);
  const { version } = (await store.read())!;
  assert.equal(await store.update({ current: { ...current, cert: 'CERT2' }, retired: [] }, version), 'updated');
  assert.equal((await store.read())?.state.current?.cert, 'CERT2');
  assert.equal(await store.update({ current: { ...current, cert: 'CERT3' }, retired: [] }, version), 'conflict');
  assert.equal((await store.read())?.state.current?.cert, 'CERT2');
});

test('a rotation in progress round-trips, and keys of a finished rotation are removed while foreign keys stay', async () => {
  const { core, secrets } = fakeCore();
  const store = secretStore(core, 'ns', 's');
  const rotating = { current, next, retired: [{ caCert: 'OLDCA', until: new Date('2026-01-01T00:04:00Z') }] };
  await store.create(rotating);
  secrets.get('ns/s')!.data!['someone-else'] = 'eA==';
  assert.deepEqual((await store.read())?.state, rotating);
  const { version } = (await store.read())!;
  const { serveFrom: _, ...promoted } = next;
  assert.equal(await store.update({ current: promoted, retired: [] }, version), 'updated');
  assert.deepEqual(Object.keys(secrets.get('ns/s')!.data!).sort(), ['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'someone-else', 'tls.crt', 'tls.key']);
  assert.deepEqual((await store.read())?.state, { current: promoted, retired: [] });
});

test('a Secret deleted between read and update is a conflict (the next sync re-reads)', async () => {
  const { core, secrets } = fakeCore();
  const store = secretStore(core, 'ns', 's');
  await store.create(state);
  const { version } = (await store.read())!;
  secrets.delete('ns/s');
  assert.equal(await store.update(state, version), 'conflict');
});

test('errors other than NotFound/Conflict are wrapped with what was attempted', async () => {
  const core = { readNamespacedSecret: async () => { throw Object.assign(new Error('forbidden'), { code: 403 }); } } as unknown as CoreV1Api;
  await assert.rejects(secretStore(core, 'ns', 's').read(), /read secret ns\/s/);
});
