import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretMetadataOnly } from './cached-secret.js';

test('a cached Secret keeps its metadata and type, never its data, stringData or managedFields', () => {
  const s = { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'a', namespace: 'n', labels: { x: 'y' }, managedFields: [{}] },
    data: { password: 'c2VjcmV0' }, stringData: { token: 'plain' } };
  assert.deepEqual(secretMetadataOnly(s), { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'a', namespace: 'n', labels: { x: 'y' } } });
});
