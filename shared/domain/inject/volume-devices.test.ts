// volumeDevices of sidecars (upstream HEAD's pod/mutating TestPodVolumeDevicesAppend and
// TestBuildSidecarVolumes_WithDifferentVolumeScenarios): their volumes are injected like those of volumeMounts, and
// `shareVolumeDevicePolicy: enabled` shares the app containers' devices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { makeCtx } from './fixtures.js';
import { injectSidecars } from './index.js';
import { buildSidecars } from './build-sidecars.js';
import { NOW } from './fixtures.js';

const podWithStaragent = (): Pod => ({
  metadata: { name: 'test-pod', namespace: 'default', labels: { app: 'suxing-test' } },
  spec: {
    containers: [
      {
        name: 'nginx',
        image: 'nginx:1.15.1',
        env: [{ name: 'hello1', value: 'world1' }, { name: 'hello2', value: 'world2' }],
        volumeMounts: [{ name: 'volume-a', mountPath: '/a/b' }, { name: 'volume-b', mountPath: '/e/f' }, { name: 'volume-staragent', mountPath: '/staragent' }],
        volumeDevices: [{ name: 'origin-pvc-1', devicePath: '/origin-1' }, { name: 'origin-pvc-share', devicePath: '/share' }],
      },
    ],
    volumes: [{ name: 'volume-a' }, { name: 'volume-b' }, { name: 'volume-staragent' }, { name: 'origin-pvc-1' }, { name: 'origin-pvc-share' }],
  },
});

/** sidecarSetWithStaragent cut down as both upstream cases do: one init container (dns-e) and one container (dns-f). */
const staragentSet = (share: boolean): SidecarSet => ({
  metadata: { name: 'sidecarset3', annotations: { 'kruise.io/sidecarset-hash': 'gm967682cm' } },
  spec: {
    selector: { matchLabels: { app: 'suxing-test' } },
    initContainers: [
      {
        name: 'dns-e',
        image: 'dns-e-image:1.0',
        ...(share ? { volumeMounts: [{ name: 'volume-3', mountPath: '/g/h/i' }, { name: 'volume-4', mountPath: '/j/k/l' }, { name: 'volume-staragent', mountPath: '/staragent' }] } : {}),
        volumeDevices: [{ name: 'disk0', devicePath: '/dev/nvme0' }],
        podInjectPolicy: 'BeforeAppContainer',
        shareVolumePolicy: {},
        ...(share ? { shareVolumeDevicePolicy: { type: 'enabled' } } : {}),
      },
    ],
    containers: [
      {
        name: 'dns-f',
        image: 'dns-f-image:1.0',
        volumeDevices: [{ name: 'disk0', devicePath: '/dev/nvme1' }],
        podInjectPolicy: 'AfterAppContainer',
        shareVolumePolicy: {},
        ...(share ? { shareVolumeDevicePolicy: { type: 'enabled' } } : {}),
      },
    ],
    volumes: share ? [{ name: 'volume-3' }, { name: 'volume-4' }, { name: 'volume-staragent' }, { name: 'disk0' }] : [{ name: 'disk0' }],
  },
});

const cases = [
  {
    name: 'append normal volumeDevices, ShareVolumeDevicePolicy=disable',
    share: false,
    initDevices: [{ name: 'disk0', devicePath: '/dev/nvme0' }],
    devices: [{ name: 'disk0', devicePath: '/dev/nvme1' }],
    volumes: ['volume-a', 'volume-b', 'volume-staragent', 'origin-pvc-1', 'origin-pvc-share', 'disk0'],
  },
  {
    name: 'append normal volumeDevices, ShareVolumeDevicePolicy=enable',
    share: true,
    initDevices: [{ name: 'disk0', devicePath: '/dev/nvme0' }, { name: 'origin-pvc-1', devicePath: '/origin-1' }, { name: 'origin-pvc-share', devicePath: '/share' }],
    devices: [{ name: 'disk0', devicePath: '/dev/nvme1' }, { name: 'origin-pvc-1', devicePath: '/origin-1' }, { name: 'origin-pvc-share', devicePath: '/share' }],
    volumes: ['volume-a', 'volume-b', 'volume-staragent', 'origin-pvc-1', 'origin-pvc-share', 'volume-3', 'volume-4', 'disk0'],
  },
];
// Informer objects carry a resourceVersion, which takes the per-generation cached path (generations.test.ts): both
// paths must inject the same devices and volumes, and the cached one twice in a row.
let rv = 1;
const asStored = (set: SidecarSet): SidecarSet => ({ ...set, metadata: { ...set.metadata, resourceVersion: String(rv++) } });
for (const tc of cases) {
  for (const [path, sets] of [['uncached', () => [staragentSet(tc.share)]], ['cached', () => { const s = asStored(staragentSet(tc.share)); return [s]; }]] as const) {
    test(`${tc.name} (TestPodVolumeDevicesAppend), ${path}`, () => {
      const ctx = makeCtx(sets());
      for (let i = 0; i < 2; i++) {
        const out = injectSidecars(podWithStaragent(), ctx);
        assert.deepEqual(out.spec!.initContainers![0]!.volumeDevices, tc.initDevices);
        assert.deepEqual(out.spec!.containers[1]!.name, 'dns-f');
        assert.deepEqual(out.spec!.containers[1]!.volumeDevices, tc.devices);
        assert.deepEqual(out.spec!.volumes, tc.volumes.map((name) => ({ name })));
      }
    });
  }
}

test('a shared device is not added on a path the sidecar already mounts (util.MergeVolumeDevices)', () => {
  const set = staragentSet(true);
  set.spec!.containers![0]!.volumeMounts = [{ name: 'volume-3', mountPath: '/share' }];
  const out = injectSidecars(podWithStaragent(), makeCtx([set]));
  assert.deepEqual(out.spec!.containers[1]!.volumeDevices!.map((d) => d.devicePath), ['/dev/nvme1', '/origin-1']);
});

const buildCases: { name: string; set: () => SidecarSet; want: string[] }[] = [
  {
    name: 'missing volume in sidecarSet',
    set: () => {
      const s = staragentSet(true);
      s.spec!.volumes = [{ name: 'volume-a1' }, { name: 'volume-b2' }, { name: 'volume-c3' }];
      return s;
    },
    want: [],
  },
  {
    name: 'existing volumes in sidecarSet',
    set: () => {
      const s = staragentSet(false);
      s.spec!.initContainers![0]!.volumeMounts = [{ name: 'volume-1', mountPath: '/a/b' }, { name: 'volume-2', mountPath: '/c/d' }];
      s.spec!.containers![0]!.volumeMounts = [{ name: 'volume-3', mountPath: '/a/b' }, { name: 'volume-4', mountPath: '/c/d' }];
      s.spec!.containers![0]!.volumeDevices = [{ name: 'disk1', devicePath: '/dev/nvme1' }];
      s.spec!.volumes = ['volume-1', 'volume-2', 'volume-3', 'volume-4', 'disk0', 'disk1'].map((name) => ({ name }));
      return s;
    },
    want: ['volume-1', 'volume-2', 'disk0', 'volume-3', 'volume-4', 'disk1'],
  },
];
for (const tc of buildCases) {
  test(`${tc.name} (TestBuildSidecarVolumes_WithDifferentVolumeScenarios)`, () => {
    const built = buildSidecars([tc.set()], podWithStaragent(), NOW, 'default/test-pod');
    assert.deepEqual(built.volumes.map((v) => v.name), tc.want);
  });
}
