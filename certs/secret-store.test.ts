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
    replaceNamespacedSecret: async ({ namespace, name, body }: { namespace: string; name: string; body: V1Secret }) => {
      const cur = secrets.get(`${namespace}/${name}`)!;
      if (body.metadata?.resourceVersion !== cur.metadata?.resourceVersion) throw err(409);
      secrets.set(`${namespace}/${name}`, { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } });
      return body;
    },
  };
  return { core: core as unknown as CoreV1Api, secrets };
}

const bundle = { caKey: 'CAKEY', caCert: 'CACERT', key: 'KEY', cert: 'CERT' };

test('an absent Secret reads as undefined, is created once, and a second create is a conflict', async () => {
  const { core, secrets } = fakeCore();
  const store = secretStore(core, 'kruise-system', 'kruise-webhook-certs');
  assert.equal(await store.read(), undefined);
  assert.equal(await store.create(bundle), 'created');
  assert.equal(await store.create(bundle), 'conflict');
  const stored = await store.read();
  assert.deepEqual(stored?.bundle, bundle);
  assert.equal(stored?.version, '1');
  assert.deepEqual(Object.keys(secrets.get('kruise-system/kruise-webhook-certs')!.data!).sort(), ['ca-cert.pem', 'ca-key.pem', 'cert.pem', 'key.pem', 'tls.crt', 'tls.key']);
});

test('an update with a stale version is refused instead of clobbering another replica', async () => {
  const { core } = fakeCore();
  const store = secretStore(core, 'ns', 's');
  await store.create(bundle);
  const { version } = (await store.read())!;
  await store.update({ ...bundle, cert: 'CERT2' }, version);
  assert.equal((await store.read())?.bundle.cert, 'CERT2');
  await assert.rejects(store.update({ ...bundle, cert: 'CERT3' }, version), /changed concurrently/);
});

test('errors other than NotFound/Conflict are wrapped with what was attempted', async () => {
  const core = { readNamespacedSecret: async () => { throw Object.assign(new Error('forbidden'), { code: 403 }); } } as unknown as CoreV1Api;
  await assert.rejects(secretStore(core, 'ns', 's').read(), /read secret ns\/s/);
});
