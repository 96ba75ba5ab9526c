import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarSet } from '../../api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetWorkingHotUpgradeContainer } from '../../api/sidecarset.js';
import { envOf, makeCtx, names, pod1 } from './fixtures.js';
import { injectSidecars } from './index.js';

const hotSet = (): SidecarSet => ({
  metadata: { name: 'sidecarset-hot', annotations: { [SidecarSetHashAnnotation]: 'hot-hash' } },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    containers: [
      { name: 'dns-f', image: 'dns-f-image:1.0', podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1.0' } },
      { name: 'log-agent', image: 'log-agent:1.0', podInjectPolicy: 'AfterAppContainer' },
    ],
  },
});

test('a HotUpgrade sidecar is injected as a working -1 and an idle -2 twin (TestInjectHotUpgradeSidecar)', () => {
  const pod = pod1();
  pod.metadata!.annotations = { [SidecarSetWorkingHotUpgradeContainer]: '{"envoy":"envoy-2"}' };
  const out = injectSidecars(pod, makeCtx([hotSet()]));
  assert.deepEqual(names(out.spec!.containers), ['dns-f-1', 'dns-f-2', 'nginx', 'log-agent']);
  assert.equal(out.spec!.containers[0]!.image, 'dns-f-image:1.0');
  assert.equal(out.spec!.containers[1]!.image, 'empty:1.0');
  assert.deepEqual(envOf(out, 'dns-f-2'), [
    { name: 'IS_INJECTED', value: 'true' },
    { name: 'SIDECARSET_VERSION', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['version.sidecarset.kruise.io/dns-f-2']" } } },
    { name: 'SIDECARSET_VERSION_ALT', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['versionalt.sidecarset.kruise.io/dns-f-2']" } } },
  ]);
  const a = out.metadata!.annotations!;
  assert.equal(a['version.sidecarset.kruise.io/dns-f-1'], '1');
  assert.equal(a['versionalt.sidecarset.kruise.io/dns-f-1'], '0');
  assert.equal(a['version.sidecarset.kruise.io/dns-f-2'], '0');
  assert.equal(a['versionalt.sidecarset.kruise.io/dns-f-2'], '1');
  assert.equal(a[SidecarSetWorkingHotUpgradeContainer], '{"dns-f":"dns-f-1","envoy":"envoy-2"}');
  assert.deepEqual(JSON.parse(a[SidecarSetHashAnnotation]!)['sidecarset-hot'].sidecarList, ['dns-f', 'log-agent'], 'the list holds the original name');
});

test('a HotUpgrade twin without hotUpgradeEmptyImage has no image (the apiserver will reject it, as upstream)', () => {
  const set = hotSet();
  delete set.spec!.containers![0]!.upgradeStrategy!.hotUpgradeEmptyImage;
  const out = injectSidecars(pod1(), makeCtx([set]));
  assert.equal('image' in out.spec!.containers[1]!, false);
});

test('native sidecar init containers are listed and HotUpgrade ones doubled; plain init containers are not listed (TestInjectInitContainer)', () => {
  const set: SidecarSet = {
    metadata: { name: 'sidecarset-native', annotations: { [SidecarSetHashAnnotation]: 'native-hash' } },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      initContainers: [
        { name: 'plain-init', image: 'x', podInjectPolicy: 'AfterAppContainer' },
        { name: 'native', image: 'n:1', restartPolicy: 'Always', podInjectPolicy: 'AfterAppContainer' },
        { name: 'hot-native', image: 'h:1', restartPolicy: 'Always', podInjectPolicy: 'AfterAppContainer', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } },
      ],
    },
  };
  const out = injectSidecars(pod1(), makeCtx([set]));
  assert.deepEqual(names(out.spec!.initContainers), ['init-0', 'hot-native-1', 'hot-native-2', 'native', 'plain-init']);
  const a = out.metadata!.annotations!;
  assert.deepEqual(JSON.parse(a[SidecarSetHashAnnotation]!)['sidecarset-native'].sidecarList, ['hot-native', 'native']);
  assert.equal(a[SidecarSetWorkingHotUpgradeContainer], '{"hot-native":"hot-native-1"}');
  assert.equal(a['version.sidecarset.kruise.io/hot-native-1'], '1');
  assert.deepEqual(names(out.spec!.containers), ['nginx']);
});

test('HotUpgrade on a plain (non-native) init container is ignored', () => {
  const set: SidecarSet = {
    metadata: { name: 's' },
    spec: { selector: { matchLabels: { app: 'nginx' } }, initContainers: [{ name: 'init-hot', image: 'x', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' } }] },
  };
  assert.deepEqual(names(injectSidecars(pod1(), makeCtx([set])).spec!.initContainers), ['init-0', 'init-hot']);
});
