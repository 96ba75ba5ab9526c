import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NodeImage } from '../../shared/api/node-image.js';
import { OwnerIndex } from './owner-index.js';

const ref = (name: string) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'ns', name, uid: `u-${name}` });
const ni = (name: string, owners: string[][]): NodeImage => ({
  metadata: { name },
  spec: { images: { nginx: { tags: owners.map((o, i) => ({ tag: String(i), ownerReferences: o.map(ref) })) } } },
});

test('tracks owners per NodeImage and NodeImages per job through updates and deletes', () => {
  const idx = new OwnerIndex();
  idx.update('n1', ni('n1', [['a'], ['a', 'b']]));
  idx.update('n2', ni('n2', [['b']]));
  assert.deepEqual(idx.nodeImagesOf('u-a'), ['n1']);
  assert.deepEqual(idx.nodeImagesOf('u-b').sort(), ['n1', 'n2']);
  assert.deepEqual(idx.jobsOn('n1'), [{ uid: 'u-a', key: 'ns/a' }, { uid: 'u-b', key: 'ns/b' }]);
  idx.update('n1', ni('n1', [['b']]));
  assert.deepEqual(idx.nodeImagesOf('u-a'), []);
  idx.update('n2', undefined);
  assert.deepEqual(idx.nodeImagesOf('u-b'), ['n1']);
  assert.deepEqual(idx.jobsOn('n2'), []);
  idx.update('n1', { metadata: { name: 'n1' }, spec: {} });
  assert.deepEqual(idx.nodeImagesOf('u-b'), []);
});
