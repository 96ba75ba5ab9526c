import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarSet } from '../api/sidecarset.js';
import { canonicalRevisionData, fnv1Hash32, revisionData, revisionHash, revisionName } from './sidecarset-revision.js';

// Expected bytes and hashes printed by Go (encoding/json of the map upstream builds, hash/fnv New32, SafeEncodeString).
const seedDemo: SidecarSet = {
  metadata: { name: 'scs-demo' },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    containers: [{
      name: 'sidecar1', image: 'busybox', command: ['sleep', '999d'], imagePullPolicy: 'Always',
      volumeMounts: [{ name: 'log-volume', mountPath: '/var/log' }],
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
      podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, shareVolumePolicy: { type: 'disabled' },
    }],
    initContainers: [],
    volumes: [{ name: 'log-volume', emptyDir: {} }],
    updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
  },
};
const seedDemoData = '{"spec":{"$patch":"replace","containers":[{"command":["sleep","999d"],"image":"busybox","imagePullPolicy":"Always","name":"sidecar1",' +
  '"podInjectPolicy":"BeforeAppContainer","resources":{},"shareVolumePolicy":{"type":"disabled"},"terminationMessagePath":"/dev/termination-log",' +
  '"terminationMessagePolicy":"File","upgradeStrategy":{"upgradeType":"ColdUpgrade"},"volumeMounts":[{"mountPath":"/var/log","name":"log-volume"}]}],' +
  '"imagePullSecrets":null,"initContainers":null,"patchPodMetadata":null,"volumes":[{"emptyDir":{},"name":"log-volume"}]}}';

const escaped: SidecarSet = {
  spec: {
    containers: [{ name: 'a<b>&c', image: 'x', resources: { limits: { cpu: '0.5' } }, env: [{ name: 'Z', value: '\u2028 ünï' }], stdin: false }],
    imagePullSecrets: [{ name: 's' }],
    patchPodMetadata: [{ patchPolicy: 'MergePatchJson', annotations: { b: '1', a: '{"x":1}' } }],
  },
};
const escapedData = '{"spec":{"$patch":"replace","containers":[{"env":[{"name":"Z","value":"\\u2028 ünï"}],"image":"x","name":"a\\u003cb\\u003e\\u0026c",' +
  '"resources":{"limits":{"cpu":"500m"}},"shareVolumePolicy":{},"upgradeStrategy":{}}],"imagePullSecrets":[{"name":"s"}],"initContainers":null,' +
  '"patchPodMetadata":[{"annotations":{"a":"{\\"x\\":1}","b":"1"},"patchPolicy":"MergePatchJson"}],"volumes":null}}';

const cases = [
  { name: 'seed demo: sorted keys at every level, empty lists as null, collision count 0', set: seedDemo, data: seedDemoData, cc: 0, hash: '5487f5fb47' },
  { name: 'seed demo with collision count 3', set: seedDemo, data: seedDemoData, cc: 3, hash: '5487f5fb44' },
  { name: 'typed fields: quantities canonical, false dropped, empty structs kept, HTML and U+2028 escaped', set: escaped, data: escapedData, cc: 0, hash: '7694784754' },
  { name: 'typed fields with collision count 3', set: escaped, data: escapedData, cc: 3, hash: '769478474f' },
];

for (const tc of cases) {
  test(tc.name, () => {
    const data = revisionData(tc.set);
    assert.equal(data, tc.data);
    assert.equal(revisionHash(data, tc.cc), tc.hash);
  });
}

test('FNV-1 32 (not 1a) of the standard vectors', () => {
  assert.equal(fnv1Hash32(Buffer.from('')), 0x811c9dc5);
  assert.equal(fnv1Hash32(Buffer.from('a')), 0x050c5d7e);
  assert.equal(fnv1Hash32(Buffer.from('foobar')), 0x31f0b262);
});

test('stored data read back as an object or text compares equal to the bytes it was made from', () => {
  const data = revisionData(escaped);
  assert.equal(canonicalRevisionData(JSON.parse(data)), data);
  assert.equal(canonicalRevisionData(data), data);
  assert.equal(canonicalRevisionData(JSON.stringify(JSON.parse(data))), data, 'JS escaping differs, canonical form does not');
});

test('revision names cut the parent name to 223 characters', () => {
  assert.equal(revisionName('scs-demo', '5487f5fb47'), 'scs-demo-5487f5fb47');
  assert.equal(revisionName('x'.repeat(250), 'h').length, 225);
});
