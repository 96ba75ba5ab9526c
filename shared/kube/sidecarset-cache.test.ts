import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiVersionOf, resources } from './resources.js';
import { sidecarSetCacheForm } from './sidecarset-cache.js';

test('a v1beta1 SidecarSet is cached in the internal (v1alpha1) form, without managedFields', () => {
  const listed = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 's', managedFields: [{ manager: 'x' }] },
    spec: { customVersion: 'v3', namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ns1' } }, containers: [{ name: 'c' }] } };
  assert.deepEqual(sidecarSetCacheForm(listed), {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v3' } },
    spec: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ns1' } }, containers: [{ name: 'c' }] },
  });
});

test('a v1alpha1 SidecarSet is cached as it is', () => {
  const alpha = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's' }, spec: { namespace: 'ns1' } };
  assert.equal(sidecarSetCacheForm(alpha), alpha);
});

test('a list item without apiVersion is read as v1beta1, the version the informers list (resources.sidecarSets)', () => {
  assert.equal(apiVersionOf(resources.sidecarSets), 'apps.kruise.io/v1beta1');
  const item = { metadata: { name: 's' }, spec: { customVersion: 'v7' } };
  assert.deepEqual(sidecarSetCacheForm(item), {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v7' } }, spec: {},
  });
});
