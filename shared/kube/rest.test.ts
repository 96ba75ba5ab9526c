// makeRest against a loopback HTTP stand-in for the apiserver: paths, query strings, patch content types, bodies,
// and how non-2xx answers become KubeApiError.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { resourcePath, resources } from './resources.js';
import { isConflict, isNotFound, KubeApiError, makeRest, type KubeRest } from './rest.js';

interface Seen { method: string; url: string; contentType?: string; body: unknown }

describe('makeRest', () => {
  let server: Server;
  let rest: KubeRest;
  const seen: Seen[] = [];
  const requests: string[] = [];

  before(async () => {
    server = createServer(async (req, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      seen.push({ method: req.method!, url: req.url!, contentType: req.headers['content-type'], body: raw ? JSON.parse(raw) : undefined });
      const reply = (code: number, obj: unknown) => { res.writeHead(code, { 'content-type': 'application/json' }); res.end(JSON.stringify(obj)); };
      if (req.url?.includes('/missing')) return reply(404, { kind: 'Status', reason: 'NotFound', code: 404, message: 'configmaps "missing" not found' });
      if ((seen.at(-1)!.body as { metadata?: { name?: string } } | undefined)?.metadata?.name === 'taken') return reply(409, { kind: 'Status', reason: 'AlreadyExists', code: 409, message: 'already exists' });
      if (req.method === 'DELETE') return reply(200, { kind: 'Status', status: 'Success' });
      return reply(200, { kind: 'Echo', metadata: { name: 'x' }, items: [] });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x',
    });
    rest = makeRest(kc, { onRequest: (m, p) => requests.push(`${m} ${p}`) });
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('builds core, group, cluster-scoped and status paths', () => {
    assert.equal(resourcePath(resources.pods, { namespace: 'a', name: 'p', subresource: 'status' }), '/api/v1/namespaces/a/pods/p/status');
    assert.equal(resourcePath(resources.pods), '/api/v1/pods');
    assert.equal(resourcePath(resources.sidecarSets, { namespace: 'ignored', name: 's' }), '/apis/apps.kruise.io/v1beta1/sidecarsets/s');
    assert.equal(resourcePath(resources.controllerRevisions, { namespace: 'kruise-system' }), '/apis/apps/v1/namespaces/kruise-system/controllerrevisions');
  });

  it('lists with selectors in the query string', async () => {
    await rest.list(resources.pods, { namespace: 'a', labelSelector: 'app=x,tier in (web)', fieldSelector: 'spec.nodeName=n1' });
    const s = seen.at(-1)!;
    assert.equal(s.method, 'GET');
    const url = new URL(s.url, 'http://x');
    assert.equal(url.pathname, '/api/v1/namespaces/a/pods');
    assert.equal(url.searchParams.get('labelSelector'), 'app=x,tier in (web)');
    assert.equal(url.searchParams.get('fieldSelector'), 'spec.nodeName=n1');
  });

  it('sends each patch type with its content type; force only for apply', async () => {
    const where = { namespace: 'a', name: 'cm' };
    const cases = [
      ['merge', 'application/merge-patch+json'], ['json', 'application/json-patch+json'],
      ['strategic', 'application/strategic-merge-patch+json'], ['apply', 'application/apply-patch+yaml'],
    ] as const;
    for (const [type, contentType] of cases) {
      await rest.patch(resources.configMaps, where, type, { data: { k: 'v' } }, { fieldManager: 'fm', force: true });
      const s = seen.at(-1)!;
      assert.equal(s.method, 'PATCH');
      assert.equal(s.contentType, contentType);
      assert.deepEqual(s.body, { data: { k: 'v' } });
      const q = new URL(s.url, 'http://x').searchParams;
      assert.equal(q.get('fieldManager'), 'fm');
      assert.equal(q.get('force'), type === 'apply' ? 'true' : null);
    }
  });

  it('writes status through the subresource on replace', async () => {
    await rest.replace(resources.nodeImages, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', metadata: { name: 'n1' } }, { subresource: 'status' });
    assert.equal(seen.at(-1)!.method, 'PUT');
    assert.equal(seen.at(-1)!.url, '/apis/apps.kruise.io/v1beta1/nodeimages/n1/status');
  });

  it('maps 404 and 409 to KubeApiError with code and reason; find and delete treat 404 as absent', async () => {
    await assert.rejects(rest.get(resources.configMaps, { namespace: 'a', name: 'missing' }), (err: unknown) => {
      assert.ok(err instanceof KubeApiError);
      assert.equal(err.code, 404);
      assert.equal(err.reason, 'NotFound');
      assert.match(err.message, /GET \/api\/v1\/namespaces\/a\/configmaps\/missing: 404 configmaps "missing" not found/);
      return isNotFound(err) && !isConflict(err);
    });
    assert.equal(await rest.find(resources.configMaps, { namespace: 'a', name: 'missing' }), undefined);
    assert.equal(await rest.delete(resources.configMaps, { namespace: 'a', name: 'missing' }), false);
    assert.equal(await rest.delete(resources.configMaps, { namespace: 'a', name: 'there' }, { propagationPolicy: 'Background', uid: 'u1' }), true);
    assert.deepEqual(seen.at(-1)!.body, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', preconditions: { uid: 'u1' } });
    await assert.rejects(rest.create(resources.configMaps, { metadata: { name: 'taken', namespace: 'a' } }), isConflict);
  });

  it('counts every request through onRequest', () => {
    assert.equal(requests.length, seen.length);
  });
});
