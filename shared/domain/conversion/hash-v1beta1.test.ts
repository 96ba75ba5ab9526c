// Hashes of v1beta1 SidecarSets (spec/openkruise-v1.9.md §2.5; upstream pkg/control/sidecarcontrol/hash_test.go
// TestSidecarSetHashV1beta1 / TestSidecarSetHashWithoutImageV1beta1): computed on the internal form a v1beta1 object
// converts to, they equal upstream's, and the v1.8 vectors are unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarSet } from '../../api/sidecarset.js';
import { sidecarSetHash, sidecarSetHashPayload, sidecarSetHashWithoutImage } from '../sidecarset-hash.js';
import { internalSidecarSet } from './sidecarset.js';

const container1 = { name: 'container1', image: 'test-image' };
const beta = (spec: object): SidecarSet => internalSidecarSet({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'test-sidecarset' }, spec } as SidecarSet);

test('TestSidecarSetHashV1beta1: the v1.8 vectors hold for the v1beta1 form', () => {
  const s = beta({ containers: [container1], customVersion: 'v1', namespaceSelector: { matchLabels: { a: 'b' } } });
  assert.equal(sidecarSetHashPayload(s), '{"containers":[{"name":"container1","image":"test-image","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}]}');
  assert.equal(sidecarSetHash(s), 'w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78');
  assert.equal(sidecarSetHashWithoutImage(s), '8wzddb4dvv9c6x8zdc77z4z75987424f457dfv6724ddw6zbdx467wz5x24fc759');
});

test('TestSidecarSetHashWithoutImageV1beta1: a container plus a native-sidecar init container', () => {
  const s = beta({ containers: [container1], initContainers: [{ ...container1, restartPolicy: 'Always' }] });
  const blanked = beta({ containers: [{ name: 'container1' }], initContainers: [{ name: 'container1', restartPolicy: 'Always' }] });
  assert.equal(sidecarSetHashPayload(blanked),
    '{"containers":[{"name":"container1","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}],"initContainers":[{"name":"container1","resources":{},"restartPolicy":"Always","upgradeStrategy":{},"shareVolumePolicy":{}}]}');
  assert.equal(sidecarSetHashWithoutImage(s), '5725fw8bwbx249bw57v5892c847dzf48bww9zb7c86xb95264fdz26654847b2c8');
});

test('shareVolumeDevicePolicy is serialised after shareVolumePolicy when set, and absent when nil', () => {
  const withPolicy = beta({ containers: [{ name: 'c', shareVolumeDevicePolicy: { type: 'enabled' } }] });
  assert.equal(sidecarSetHashPayload(withPolicy), '{"containers":[{"name":"c","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{},"shareVolumeDevicePolicy":{"type":"enabled"}}]}');
  const empty = beta({ containers: [{ name: 'c', shareVolumeDevicePolicy: {} }] });
  assert.equal(sidecarSetHashPayload(empty), '{"containers":[{"name":"c","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{},"shareVolumeDevicePolicy":{}}]}');
  assert.notEqual(sidecarSetHash(withPolicy), sidecarSetHash(beta({ containers: [{ name: 'c' }] })));
});
