// The lease adapter over KubeRest talking to a small HTTP stand-in for the API server on 127.0.0.1, so request
// shapes (paths, MicroTime format) and status mapping are checked end to end.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LeaseConflictError, type LeaseClient } from './leader-election.js';
import { restLeaseClient } from './rest-lease-client.js';
import { makeRest } from './rest.js';

interface Seen { method: string; url: string; body: any }

function status(code: number, reason: string) {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code, message: reason };
}

const clients: [string, (url: string) => LeaseClient][] = [
  ['restLeaseClient', (url) => restLeaseClient(makeRest({ server: url, tls: {}, authorization: () => undefined }))],
];

for (const [suite, make] of clients) describe(suite, () => {
  let server: Server;
  let client: LeaseClient;
  const seen: Seen[] = [];
  let stored: any;

  before(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const body = raw ? JSON.parse(raw) : undefined;
      seen.push({ method: req.method!, url: req.url!, body });
      const reply = (code: number, obj: unknown) => { res.writeHead(code, { 'content-type': 'application/json' }); res.end(JSON.stringify(obj)); };
      const base = '/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases';
      if (req.method === 'GET' && req.url === `${base}/missing`) return reply(404, status(404, 'NotFound'));
      if (req.method === 'GET' && req.url === `${base}/held`) return reply(200, stored);
      if (req.method === 'POST' && req.url === base) {
        if (body.metadata.name === 'held') return reply(409, status(409, 'AlreadyExists'));
        return reply(201, { ...body, metadata: { ...body.metadata, resourceVersion: '1' } });
      }
      if (req.method === 'PUT' && req.url === `${base}/held`) {
        if (body.metadata.resourceVersion !== stored.metadata.resourceVersion) return reply(409, status(409, 'Conflict'));
        stored = { ...body, metadata: { ...body.metadata, resourceVersion: String(Number(body.metadata.resourceVersion) + 1) } };
        return reply(200, stored);
      }
      if (req.method === 'GET' && req.url === `${base}/broken`) return reply(500, status(500, 'InternalError'));
      reply(400, status(400, 'BadRequest'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    client = make(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  after(() => new Promise<void>((r) => server.close(() => r())));

  it('get of a missing Lease is undefined', async () => {
    assert.equal(await client.get('kruise-system', 'missing'), undefined);
  });

  it('get maps spec fields, reading MicroTime strings as epoch milliseconds', async () => {
    stored = {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
      metadata: { name: 'held', namespace: 'kruise-system', resourceVersion: '7' },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2026-01-02T03:04:05.123456Z', renewTime: '2026-01-02T03:04:06.000000Z', leaseTransitions: 2 },
    };
    assert.deepEqual(await client.get('kruise-system', 'held'), {
      namespace: 'kruise-system', name: 'held', resourceVersion: '7', holderIdentity: 'a', leaseDurationSeconds: 15,
      acquireTime: Date.parse('2026-01-02T03:04:05.123Z'), renewTime: Date.parse('2026-01-02T03:04:06Z'), leaseTransitions: 2,
    });
  });

  it('create sends a Lease with six-digit MicroTime values', async () => {
    const t = Date.parse('2026-01-02T03:04:05.678Z');
    const created = await client.create({ namespace: 'kruise-system', name: 'new', holderIdentity: 'b', leaseDurationSeconds: 15, acquireTime: t, renewTime: t, leaseTransitions: 0 });
    const sent = seen.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.body.spec.renewTime, '2026-01-02T03:04:05.678000Z');
    assert.equal(sent.body.kind, 'Lease');
    assert.deepEqual([created.resourceVersion, created.holderIdentity, created.renewTime], ['1', 'b', t]);
  });

  it('create of an existing Lease is a LeaseConflictError', async () => {
    await assert.rejects(client.create({ namespace: 'kruise-system', name: 'held' }), LeaseConflictError);
  });

  it('replace sends the resourceVersion it read, and a stale one is a LeaseConflictError', async () => {
    const current = (await client.get('kruise-system', 'held'))!;
    const updated = await client.replace({ ...current, holderIdentity: 'c' });
    assert.equal(seen.at(-1)!.body.metadata.resourceVersion, '7');
    assert.deepEqual([updated.holderIdentity, updated.resourceVersion], ['c', '8']);
    await assert.rejects(client.replace({ ...current, holderIdentity: 'd' }), LeaseConflictError);
  });

  it('a released Lease (no holder) is sent without holderIdentity', async () => {
    const current = (await client.get('kruise-system', 'held'))!;
    await client.replace({ ...current, holderIdentity: undefined, leaseDurationSeconds: 1 });
    assert.equal('holderIdentity' in seen.at(-1)!.body.spec, false);
  });

  it('other API errors are plain errors carrying the cause', async () => {
    await assert.rejects(client.get('kruise-system', 'broken'), (err: Error) => !(err instanceof LeaseConflictError) && /get lease kruise-system\/broken/.test(err.message) && err.cause !== undefined);
  });
});
