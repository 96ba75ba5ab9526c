// Volume defaults as OpenKruise v1.9.0 applies them (SetDefaultPodVolumes with Kubernetes 1.32's SetDefaults_*). The
// image-volume cases are Kubernetes 1.32's TestSetDefaults_Volume (pkg/apis/core/v1/defaults_test.go), which runs
// with the ImageVolume gate on; the dropped defaulters are kruise's v1.8.4 → v1.9.0 diff of apis/apps/defaults/pod.go.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultVolume } from './volume-defaults.js';

const on = { imageVolume: true };

describe('defaultVolume: Kubernetes 1.32 SetDefaults_Volume (ImageVolume gate on)', () => {
  const cases: [string, object, object][] = [
    ['defaults to emptyDir', {}, { emptyDir: {} }],
    ['default image volume source pull policy is IfNotPresent', { image: { reference: 'image:v1' } }, { image: { reference: 'image:v1', pullPolicy: 'IfNotPresent' } }],
    ["default image volume source pull policy Always if 'latest' tag is used", { image: { reference: 'image:latest' } }, { image: { reference: 'image:latest', pullPolicy: 'Always' } }],
    ['default image volume source pull policy Always if no tag is used', { image: { reference: 'image' } }, { image: { reference: 'image', pullPolicy: 'Always' } }],
    ['a digest without a tag is IfNotPresent', { image: { reference: `image@sha256:${'a'.repeat(64)}` } }, { image: { reference: `image@sha256:${'a'.repeat(64)}`, pullPolicy: 'IfNotPresent' } }],
    ['a set pullPolicy is kept', { image: { reference: 'image', pullPolicy: 'Never' } }, { image: { reference: 'image', pullPolicy: 'Never' } }],
    ['no reference: IfNotPresent (ParseImageName fails on "" and returns no tag)', { image: {} }, { image: { pullPolicy: 'IfNotPresent' } }],
  ];
  for (const [name, given, want] of cases) test(name, () => assert.deepEqual(defaultVolume(structuredClone(given), on), want));
});

test('an image volume is a volume source: no emptyDir is added beside it, gate on or off', () => {
  assert.deepEqual(defaultVolume({ name: 'v', image: { reference: 'quay.io/my/artifact:v1' } }), { name: 'v', image: { reference: 'quay.io/my/artifact:v1' } });
  assert.deepEqual(defaultVolume({ name: 'v', image: { reference: 'a:1' } }, on), { name: 'v', image: { reference: 'a:1', pullPolicy: 'IfNotPresent' } });
});

test('with the ImageVolume gate off (Kubernetes 1.32 default) an empty pullPolicy stays empty', () => {
  assert.deepEqual(defaultVolume({ image: { reference: 'image:latest' } }), { image: { reference: 'image:latest' } });
  assert.deepEqual(defaultVolume({ image: { reference: 'image:latest', pullPolicy: '' } }, { imageVolume: false }), { image: { reference: 'image:latest', pullPolicy: '' } });
});

test('iscsi, rbd, azureDisk and scaleIO are left as written (Kubernetes 1.31 removed their defaulters; kruise v1.9.0 dropped the calls)', () => {
  const given = [
    { name: 'i', iscsi: { targetPortal: 'p:3260', iqn: 'iqn.2001-04.com.example:d', lun: 0 } },
    { name: 'r', rbd: { monitors: ['m'], image: 'img' } },
    { name: 'a', azureDisk: { diskName: 'd', diskURI: 'https://a.blob.core.windows.net/c/d.vhd' } },
    { name: 's', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'x' } } },
  ];
  for (const v of given) assert.deepEqual(defaultVolume(structuredClone(v)), v);
});

test('the defaulters Kubernetes 1.32 keeps: hostPath type, modes, fieldRef apiVersion, token expiry', () => {
  assert.deepEqual(defaultVolume({ hostPath: { path: '/x' } }), { hostPath: { path: '/x', type: '' } });
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) assert.equal(defaultVolume({ [k]: {} })[k].defaultMode, 420);
  assert.deepEqual(defaultVolume({ downwardAPI: { items: [{ path: 'p', fieldRef: { fieldPath: 'metadata.name' } }] } }).downwardAPI.items[0].fieldRef, { fieldPath: 'metadata.name', apiVersion: 'v1' });
  const projected = defaultVolume({ projected: { sources: [{ serviceAccountToken: { path: 't' } }, { downwardAPI: { items: [{ path: 'p', fieldRef: { fieldPath: 'x' } }] } }] } }).projected;
  assert.equal(projected.sources[0].serviceAccountToken.expirationSeconds, 3600);
  assert.equal(projected.sources[1].downwardAPI.items[0].fieldRef.apiVersion, 'v1');
});
