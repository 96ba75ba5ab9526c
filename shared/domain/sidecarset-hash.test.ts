import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarContainer, SidecarSet } from '../api/sidecarset.js';
import { sidecarSetHash, sidecarSetHashPayload, sidecarSetHashWithoutImage } from './sidecarset-hash.js';

const set = (containers?: SidecarContainer[] | null, initContainers?: SidecarContainer[]): SidecarSet =>
  ({ metadata: { name: 'test-sidecarset' }, spec: { containers: containers as SidecarContainer[], initContainers } });

const container1 = { name: 'container1', image: 'test-image' };
const dnsF: SidecarContainer = {
  name: 'dns-f',
  image: 'dns:1.0',
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
  podInjectPolicy: 'BeforeAppContainer',
  upgradeStrategy: { upgradeType: 'ColdUpgrade' },
  shareVolumePolicy: { type: 'disabled' },
};

// Upstream vectors: kruise pkg/control/sidecarcontrol/hash_test.go and
// pkg/webhook/sidecarset/mutating/sidecarset_mutating_test.go (spec/webhooks.md §1.5).
const vectors = [
  {
    name: 'one plain container',
    set: set([container1]),
    payload: '{"containers":[{"name":"container1","image":"test-image","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}]}',
    hash: 'w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78',
    withoutImage: '8wzddb4dvv9c6x8zdc77z4z75987424f457dfv6724ddw6zbdx467wz5x24fc759',
  },
  {
    name: 'a container plus a native-sidecar init container',
    set: set([container1], [{ ...container1, restartPolicy: 'Always' }]),
    payload:
      '{"containers":[{"name":"container1","image":"test-image","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}],' +
      '"initContainers":[{"name":"container1","image":"test-image","resources":{},"restartPolicy":"Always","upgradeStrategy":{},"shareVolumePolicy":{}}]}',
    hash: '4xwx4d4844vd4v9x79wb4xbxf4xb29475cc4446v8cz2c2f2f5c5bw448vd42z8w',
    // v1.9 hash_test.go TestSidecarSetHashWithoutImageV1beta1 (spec/openkruise-v1.9.md §2.5).
    withoutImage: '5725fw8bwbx249bw57v5892c847dzf48bww9zb7c86xb95264fdz26654847b2c8',
  },
  {
    name: 'the defaulted dns-f container',
    set: set([dnsF]),
    payload:
      '{"containers":[{"name":"dns-f","image":"dns:1.0","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",' +
      '"imagePullPolicy":"IfNotPresent","podInjectPolicy":"BeforeAppContainer","upgradeStrategy":{"upgradeType":"ColdUpgrade"},"shareVolumePolicy":{"type":"disabled"}}]}',
    hash: '6wbd76bd7984x24fb4f44fv9222cw9v9bcf85x766744wddd4zwx927zzz2zb684',
    withoutImage: '82684vwf9d4cb4wz4vffx4ddfbb47ww4z4wwxdbwb8w2zbb7zvf4524cdd49bv94',
  },
];
for (const v of vectors) {
  test(`upstream vector: ${v.name}`, () => {
    assert.equal(sidecarSetHashPayload(v.set), v.payload);
    assert.equal(sidecarSetHash(v.set), v.hash);
    if (v.withoutImage) assert.equal(sidecarSetHashWithoutImage(v.set), v.withoutImage);
  });
}

test('upstream vector: the hash without image equals the hash of the same set with images blanked', () => {
  assert.equal(sidecarSetHashWithoutImage(set([container1])), sidecarSetHash(set([{ name: 'container1' }])));
  assert.equal(sidecarSetHashWithoutImage(set([container1])), '8wzddb4dvv9c6x8zdc77z4z75987424f457dfv6724ddw6zbdx467wz5x24fc759');
});

test('the hash does not depend on the key order of the input', () => {
  const shuffled = { shareVolumePolicy: {}, image: 'test-image', upgradeStrategy: {}, name: 'container1' };
  assert.equal(sidecarSetHash(set([shuffled])), vectors[0]!.hash);
});

test('init containers are left out unless one of them is a native sidecar', () => {
  const plainInit = set([container1], [{ name: 'init', image: 'busybox' }]);
  assert.equal(sidecarSetHashPayload(plainInit), vectors[0]!.payload);
  const mixed = set([container1], [{ name: 'init', image: 'busybox' }, { name: 'side', image: 'x', restartPolicy: 'Always' }]);
  assert.match(sidecarSetHashPayload(mixed), /"initContainers":\[\{"name":"init",.*\{"name":"side",/);
});

test('a missing containers list hashes as null, an empty one as []', () => {
  assert.equal(sidecarSetHashPayload(set(undefined)), '{"containers":null}');
  assert.equal(sidecarSetHashPayload(set(null)), '{"containers":null}');
  assert.equal(sidecarSetHashPayload({ spec: undefined }), '{"containers":null}');
  assert.equal(sidecarSetHashPayload(set([])), '{"containers":[]}');
  assert.notEqual(sidecarSetHash(set(undefined)), sidecarSetHash(set([])));
});

test('the hash without image keeps hotUpgradeEmptyImage and blanks init container images too', () => {
  const hot = { ...container1, upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } };
  const init = { name: 'side', image: 'x', restartPolicy: 'Always' };
  const blanked = set([{ ...hot, image: '' }], [{ ...init, image: '' }]);
  assert.equal(sidecarSetHashWithoutImage(set([hot], [init])), sidecarSetHash(blanked));
  assert.match(sidecarSetHashPayload(blanked), /"hotUpgradeEmptyImage":"empty:1"/);
});

test('hashing does not modify the SidecarSet', () => {
  const s = set([{ ...container1 }], [{ name: 'side', image: 'x', restartPolicy: 'Always' }]);
  const before = structuredClone(s);
  sidecarSetHash(s);
  sidecarSetHashWithoutImage(s);
  assert.deepEqual(s, before);
});

test('the hash is 64 characters from the safe alphabet', () => {
  assert.match(sidecarSetHash(set([container1])), /^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
});

test('v1.9: resourcesPolicy and shareVolumeDevicePolicy hash after their v1.9 neighbours; the mode and resourcesExpr are always written', () => {
  const c: SidecarContainer = {
    ...container1,
    resourcesPolicy: { targetContainersNameRegex: '', resourcesExpr: { limits: { cpu: 'cpu*50%', memory: '' } } },
    transferEnv: [{ envName: 'A' }],
    shareVolumeDevicePolicy: { type: 'enabled' },
  };
  assert.equal(sidecarSetHashPayload(set([c])),
    '{"containers":[{"name":"container1","image":"test-image","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{},' +
    '"shareVolumeDevicePolicy":{"type":"enabled"},"transferEnv":[{"envName":"A"}],' +
    '"resourcesPolicy":{"targetContainersMode":"","resourcesExpr":{"limits":{"cpu":"cpu*50%"}}}}]}');
  const empty = { ...container1, resourcesPolicy: { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: {} } };
  assert.match(sidecarSetHashPayload(set([empty])), /"resourcesPolicy":\{"targetContainersMode":"sum","targetContainersNameRegex":"\.\*","resourcesExpr":\{\}\}/);
  // A policy changes both hashes, so pods injected before it are not upgradable in place (as any non-image change).
  assert.notEqual(sidecarSetHashWithoutImage(set([empty])), sidecarSetHashWithoutImage(set([container1])));
});
