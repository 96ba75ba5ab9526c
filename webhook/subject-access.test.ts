// The ResourceDistribution handler's SubjectAccessReviews (review N-L3): sent through the project's REST client, so a
// wedged apiserver connection is cut at the timeout; and budgeted per source address, so reviews forged at the port
// with fresh usernames spend only their sender's budget, never the apiserver's.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { validateResourceDistribution } from '../shared/domain/validation/resource-distribution.js';
import { makeRest } from '../shared/kube/rest.js';
import { buildApp } from './app.js';
import { validateResourceDistributionRoute } from './handlers/validate-resource-distribution.js';
import { MAX_CHECKED_NAMESPACES, type CanWrite } from './handlers/write-access.js';
import { createMetrics } from './metrics.js';
import { subjectAccess, subjectAccessReview } from './subject-access.js';
import { review } from './test-helpers.js';

const held: Socket[] = [];
let closed = 0;
const blackHole = createTcpServer((s) => { held.push(s); s.resume(); s.on('close', () => closed++); });
const bodies: { path: string; body: any }[] = [];
const apiserver = createHttpServer((req: IncomingMessage, res) => {
  let data = '';
  req.on('data', (c) => (data += c));
  req.on('end', () => {
    const body = JSON.parse(data);
    bodies.push({ path: req.url ?? '', body });
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...body, status: { allowed: body.spec.resourceAttributes.namespace !== undefined } }));
  });
});
const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
const server = (s: { address(): unknown }) => ({ server: `http://127.0.0.1:${port(s)}`, tls: {}, authorization: () => undefined });

before(async () => {
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => apiserver.listen(0, '127.0.0.1', r));
});
after(() => {
  for (const s of held) s.destroy();
  blackHole.close();
  apiserver.closeAllConnections();
  apiserver.close();
});

const alice = { username: 'alice', uid: 'u1', groups: ['dev'] };

test('a SubjectAccessReview speaks for the user and reads status.allowed', async () => {
  const can = subjectAccessReview(makeRest(server(apiserver), { timeoutMs: 1_000 }));
  assert.equal(await can(alice, 'create', 'secrets', 'team-a'), true);
  assert.equal(await can(alice, 'update', 'secrets', ''), false);
  assert.equal(bodies[0]?.path, '/apis/authorization.k8s.io/v1/subjectaccessreviews');
  assert.deepEqual(bodies[0]?.body.spec, { user: 'alice', uid: 'u1', groups: ['dev'], resourceAttributes: { group: '', resource: 'secrets', verb: 'create', namespace: 'team-a' } });
  assert.deepEqual(bodies[1]?.body.spec.resourceAttributes, { group: '', resource: 'secrets', verb: 'update' }, 'every namespace: no namespace');
});

test('an apiserver connection that never answers: the check fails at the timeout and the connection is closed', { timeout: 10_000 }, async () => {
  const can = subjectAccessReview(makeRest(server(blackHole), { timeoutMs: 200 }));
  const t0 = Date.now();
  await assert.rejects(can(alice, 'create', 'secrets', 'team-a'),
    /cannot check whether user "alice" may create secrets in namespace "team-a": POST \/apis\/authorization.k8s.io\/v1\/subjectaccessreviews: no answer within 200 ms/);
  assert.ok(Date.now() - t0 < 2_000);
  for (let i = 0; i < 100 && closed === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(closed, 1, 'the request was destroyed, not left pending');
});

/** The RD route over `canWrite`, called from a given source address. */
function rdRoute(canWrite: CanWrite) {
  const route = validateResourceDistributionRoute({ gates: { ResourceDistributionGate: true }, validate: validateResourceDistribution, dryRunCreate: async () => undefined, canWrite });
  const app = buildApp({ log: pino({ level: 'silent' }), routes: [route], metrics: createMetrics() });
  const namespaces = Array.from({ length: MAX_CHECKED_NAMESPACES }, (_, i) => ({ name: `ns-${i}` }));
  return async (username: string, remoteAddress: string) => {
    const body = review({ kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'ResourceDistribution' }, object: {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} }, targets: { includedNamespaces: { list: namespaces } } } } });
    const res = await app.inject({ method: 'POST', url: route.path, remoteAddress, payload: { ...body, request: { ...body.request, userInfo: { username } } } });
    return res.json().response as { allowed: boolean; status?: { code: number; message?: string } };
  };
}

test('forged reviews with a fresh username each spend their source\'s SAR budget only; the apiserver\'s reviews still pass', async () => {
  let now = 0;
  const call = rdRoute(subjectAccess(makeRest(server(apiserver)), { now: () => now, burst: 500, perMinute: 500 }));
  const sent = () => bodies.length;
  const before = sent();
  // Each review costs 2 × 50 SARs: five fit in the forger's budget of 500, the sixth is refused with none sent.
  for (let i = 0; i < 5; i++) assert.equal((await call(`forged-${i}`, '10.9.9.9')).allowed, true, `forged review ${i}`);
  assert.equal(sent() - before, 5 * 2 * MAX_CHECKED_NAMESPACES);
  const refused = await call('forged-5', '10.9.9.9');
  assert.equal(refused.allowed, false);
  assert.equal(refused.status?.code, 403);
  assert.match(refused.status?.message ?? '', /too many access checks from 10\.9\.9\.9/);
  assert.equal(sent() - before, 5 * 2 * MAX_CHECKED_NAMESPACES, 'no SAR for the refused review');
  // The apiserver is another source: its budget is whole, and a user's answers are cached as before.
  assert.equal((await call('alice', '10.0.0.1')).allowed, true);
  assert.equal((await call('alice', '10.0.0.1')).allowed, true);
  assert.equal(sent() - before, 6 * 2 * MAX_CHECKED_NAMESPACES);
  // A minute later the forger's budget is back.
  now += 60_000;
  assert.equal((await call('forged-6', '10.9.9.9')).allowed, true);
});
