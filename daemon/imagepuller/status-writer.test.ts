import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NodeImage, NodeImageStatus } from '../../shared/api/node-image.js';
import { isStatusConflict, nodeImageStatusWriter, type NodeImageStatusApi } from './status-writer.js';

const status: NodeImageStatus = { desired: 1, succeeded: 0, failed: 0, pulling: 1, waiting: 0 };
const cached = (rv: string): NodeImage => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', metadata: { name: 'node-a', resourceVersion: rv }, spec: { images: {} } });

/** An API server stand-in holding one NodeImage: PUT succeeds only with the current resourceVersion. */
function server(start = 10) {
  let rv = start;
  const puts: NodeImage[] = [];
  const api: NodeImageStatusApi = {
    async replaceStatus(_name, body) {
      puts.push(structuredClone(body));
      if (body.metadata?.resourceVersion !== String(rv)) throw Object.assign(new Error('Conflict'), { code: 409 });
      rv++;
      return { ...body, metadata: { ...body.metadata, resourceVersion: String(rv) } };
    },
  };
  return { api, puts, bumpByOthers: () => rv++, rv: () => rv };
}

test('the body is a status-only NodeImage guarded by the cached resourceVersion', async () => {
  const s = server();
  await nodeImageStatusWriter(s.api)(cached('10'), status);
  assert.deepEqual(s.puts[0], { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', metadata: { name: 'node-a', resourceVersion: '10' }, status });
});

test('writes in a row while the informer still holds an older copy do not conflict with our own writes', async () => {
  const s = server();
  const write = nodeImageStatusWriter(s.api);
  await write(cached('10'), status);
  await write(cached('10'), status);
  await write(cached('11'), status);
  await write(cached('10'), status);
  assert.deepEqual(s.puts.map((p) => p.metadata?.resourceVersion), ['10', '11', '12', '13']);
});

test('a write by someone else in between still conflicts, and the error says which object', async () => {
  const s = server();
  const write = nodeImageStatusWriter(s.api);
  await write(cached('10'), status);
  s.bumpByOthers();
  await assert.rejects(write(cached('10'), status), (err: Error) => isStatusConflict(err) && /NodeImage node-a/.test(err.message));
  await write(cached(String(s.rv())), status);
});

test('a NodeImage deleted meanwhile is not an error; other failures are', async () => {
  await nodeImageStatusWriter({ replaceStatus: async () => { throw Object.assign(new Error('gone'), { code: 404 }); } })(cached('1'), status);
  const failing = nodeImageStatusWriter({ replaceStatus: async () => { throw Object.assign(new Error('forbidden'), { code: 403 }); } });
  await assert.rejects(failing(cached('1'), status), (err: Error) => !isStatusConflict(err));
});
