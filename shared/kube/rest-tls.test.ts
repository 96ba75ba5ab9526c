// makeRest over TLS against a loopback HTTPS stand-in: connection reuse, the bearer token on every request, and the
// Status message kept apart for users (rest.test.ts covers paths, content types and error mapping over plain HTTP).
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { resources } from './resources.js';
import { KubeApiError, makeRest, type KubeRest } from './rest.js';

// The stand-in answers a ConfigMap GET, a NotFound Status for anything else, and counts TLS connections and the
// bearer tokens it sees.
const ca = generateCA(new Date());
const serving = generateServingCert(ca, '127.0.0.1', new Date());
let connections = 0;
const tokens: string[] = [];
const server = createServer({ key: serving.key, cert: serving.cert }, (req, res) => {
  tokens.push(req.headers.authorization ?? '');
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/v1/namespaces/ns/configmaps/cm') {
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } }));
    return;
  }
  res.statusCode = 404;
  res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'configmaps "nope" not found' }));
});
server.on('secureConnection', () => connections++);
let rest: KubeRest;

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caData: Buffer.from(ca.cert).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'u', token: 't0ken' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  rest = makeRest(kc);
});
after(() => { server.closeAllConnections(); server.close(); });

test('requests share one kept-alive TLS connection and still carry the bearer token', async () => {
  for (let i = 0; i < 5; i++) assert.equal((await rest.get(resources.configMaps, { namespace: 'ns', name: 'cm' })).metadata?.name, 'cm');
  assert.equal(connections, 1);
  assert.deepEqual(tokens.slice(-5), Array(5).fill('Bearer t0ken'));
});

test('a Status answer becomes a KubeApiError with code, reason and the bare message; find turns NotFound into undefined', async () => {
  const err = await rest.get(resources.configMaps, { namespace: 'ns', name: 'nope' }).catch((e: unknown) => e);
  assert.ok(err instanceof KubeApiError);
  assert.deepEqual([err.code, err.reason, err.statusMessage], [404, 'NotFound', 'configmaps "nope" not found']);
  assert.match(err.message, /^GET \/api\/v1\/namespaces\/ns\/configmaps\/nope: 404 configmaps "nope" not found$/);
  assert.equal(await rest.find(resources.configMaps, { namespace: 'ns', name: 'nope' }), undefined);
});
