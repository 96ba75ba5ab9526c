import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { SidecarSetHashAnnotation, SidecarSetInPlaceUpdateStateAnnotation, SidecarSetListAnnotation, SidecarSetWorkingHotUpgradeContainer } from '../../shared/api/sidecarset.js';
import { image, kubelet, makePod, makeSet, NOW, NOW_TEXT, withImage } from './fixtures.js';
import { flipHotUpgrade, needsFlip } from './hot-upgrade-flip.js';
import { isPodReadyForSet, isPodStateConsistent } from './pod-state.js';
import { upgradePod } from './pod-upgrade.js';

const inputs = { now: NOW, injectedList: () => 'scs' };
const ann = (pod: Pod) => pod.metadata!.annotations!;
const imageID = (pod: Pod, c: string) => pod.status!.containerStatuses!.find((s) => s.name === c)!.imageID;

test('cold upgrade: only the sidecar image changes; hash entry and in-place state are written in Go form', () => {
  const v1 = makeSet();
  const v2 = { ...withImage(v1, 'busybox:2.0'), status: { matchedPods: 1, updatedPods: 0, readyPods: 1, latestRevision: 'scs-777' } };
  const pod = kubelet(makePod('p', [v1]));
  const before = structuredClone(pod);
  const oldID = imageID(pod, 'sidecar');
  assert.deepEqual(upgradePod(v2, pod, inputs), ['sidecar']);
  assert.equal(image(pod, 'sidecar'), 'busybox:2.0');
  assert.deepEqual(pod.spec!.containers.map((c) => ({ ...c, image: undefined })), before.spec!.containers.map((c) => ({ ...c, image: undefined })));
  const hash = v2.metadata!.annotations![SidecarSetHashAnnotation];
  assert.equal(ann(pod)[SidecarSetHashAnnotation],
    `{"scs":{"updateTimestamp":"${NOW_TEXT}","hash":"${hash}","sidecarSetName":"scs","sidecarList":["sidecar"],"controllerRevision":"scs-777"}}`);
  assert.equal(ann(pod)[SidecarSetInPlaceUpdateStateAnnotation],
    `{"scs":{"revision":"${hash}","updateTimestamp":"${NOW_TEXT}","lastContainerStatuses":{"sidecar":{"imageID":"${oldID}"}}}}`);
  assert.equal(ann(pod)['kruise.io/sidecarset-hash-without-image'], before.metadata!.annotations!['kruise.io/sidecarset-hash-without-image']);
});

test('an image already current changes nothing but the bookkeeping', () => {
  const v1 = makeSet();
  const pod = kubelet(makePod('p', [v1]));
  assert.deepEqual(upgradePod(v1, pod, inputs), []);
  assert.match(ann(pod)[SidecarSetInPlaceUpdateStateAnnotation]!, /"lastContainerStatuses":\{\}/);
});

test('hash entries of other SidecarSets survive; legacy string maps are converted (stamped, named after this set)', () => {
  const v1 = makeSet();
  const pod = kubelet(makePod('p', [v1]));
  ann(pod)[SidecarSetHashAnnotation] = '{"other":"h0","scs":"h1"}';
  ann(pod)['kruise.io/sidecarset-hash-without-image'] = '{"other":"w0","scs":"w1"}';
  upgradePod(withImage(v1, 'busybox:2.0'), pod, inputs);
  const hashes = JSON.parse(ann(pod)[SidecarSetHashAnnotation]!) as Record<string, { hash: string; sidecarSetName: string; updateTimestamp: string }>;
  assert.deepEqual(hashes.other, { updateTimestamp: NOW_TEXT, hash: 'h0', sidecarSetName: 'scs', sidecarList: null });
  assert.equal(JSON.parse(ann(pod)['kruise.io/sidecarset-hash-without-image']!).scs.hash, 'w1');
});

test('a pod without the injected list gets it; patchPodMetadata applies', () => {
  const v1 = makeSet();
  const set = { ...v1, spec: { ...v1.spec, patchPodMetadata: [{ annotations: { 'team/x': 'y' }, patchPolicy: 'Overwrite' }] } };
  const pod = kubelet(makePod('p', [v1]));
  delete ann(pod)[SidecarSetListAnnotation];
  upgradePod(set, pod, { now: NOW, injectedList: () => 'a,scs' });
  assert.equal(ann(pod)[SidecarSetListAnnotation], 'a,scs');
  assert.equal(ann(pod)['team/x'], 'y');
});

test('hot upgrade, step by step: standby gets the image, then the old slot is reset to the empty image', () => {
  const v1 = makeSet({ hot: true, rv: '100' });
  const v2 = withImage({ ...v1, metadata: { ...v1.metadata, resourceVersion: '200' } }, 'busybox:2.0');
  let pod = kubelet(makePod('p', [v1]));
  assert.equal(image(pod, 'sidecar-1'), 'busybox:1.0');
  assert.equal(image(pod, 'sidecar-2'), 'empty:1.0');
  const emptyID = imageID(pod, 'sidecar-2');

  // 1. The empty slot (-2) receives v2 and becomes the working one.
  assert.deepEqual(upgradePod(v2, pod, inputs), ['sidecar-2']);
  assert.equal(image(pod, 'sidecar-2'), 'busybox:2.0');
  assert.equal(image(pod, 'sidecar-1'), 'busybox:1.0');
  assert.equal(ann(pod)[SidecarSetWorkingHotUpgradeContainer], '{"sidecar":"sidecar-2"}');
  assert.equal(ann(pod)['version.sidecarset.kruise.io/sidecar-2'], '200');
  assert.equal(ann(pod)['versionalt.sidecarset.kruise.io/sidecar-2'], '1');
  assert.equal(ann(pod)['versionalt.sidecarset.kruise.io/sidecar-1'], '200');
  assert.equal(ann(pod)['version.sidecarset.kruise.io/sidecar-1'], '1');
  assert.match(ann(pod)[SidecarSetInPlaceUpdateStateAnnotation]!, new RegExp(`"sidecar-2":\\{"imageID":"${emptyID.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\}`));
  assert.equal(needsFlip(v2, pod), false, 'not before kubelet runs the new slot');
  assert.equal(isPodReadyForSet(v2, pod), false, 'a pod mid hot-upgrade is not ready');

  // 2. Kubelet starts v2 in sidecar-2: the flip is due.
  pod = kubelet(pod);
  assert.equal(isPodStateConsistent(v2, pod, new Set(['sidecar-2'])), true);
  assert.equal(needsFlip(v2, pod), true);
  const fresh = structuredClone(pod);
  const oldID = imageID(fresh, 'sidecar-1');
  assert.deepEqual(flipHotUpgrade(v2, fresh, NOW), ['sidecar-1']);
  assert.equal(image(fresh, 'sidecar-1'), 'empty:1.0');
  assert.equal(ann(fresh)['version.sidecarset.kruise.io/sidecar-1'], '0');
  assert.equal(ann(fresh)['versionalt.sidecarset.kruise.io/sidecar-2'], '0');
  assert.equal(ann(fresh)[SidecarSetHashAnnotation], ann(pod)[SidecarSetHashAnnotation], 'the flip leaves the hash alone');
  assert.match(ann(fresh)[SidecarSetInPlaceUpdateStateAnnotation]!, new RegExp(`"sidecar-1":\\{"imageID":"${oldID.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\}`));

  // 3. Kubelet restarts sidecar-1 with the empty image: ready again, nothing more to flip.
  const done = kubelet(fresh);
  assert.equal(needsFlip(v2, done), false);
  assert.equal(isPodReadyForSet(v2, done), true);
  assert.equal(isPodStateConsistent(v2, done), true);

  // 4. The next upgrade goes to the now-empty slot -1.
  const v3 = withImage(v2, 'busybox:3.0');
  const next = structuredClone(done);
  assert.deepEqual(upgradePod(v3, next, inputs), ['sidecar-1']);
  assert.equal(ann(next)[SidecarSetWorkingHotUpgradeContainer], '{"sidecar":"sidecar-1"}');
});

test('hot upgrade: the flip waits for every non-idle container to be ready, unless the pod is Running and Ready', () => {
  const v1 = makeSet({ hot: true });
  const v2 = withImage(v1, 'busybox:2.0');
  const pod = kubelet(makePod('p', [v1]));
  upgradePod(v2, pod, inputs);
  const started = kubelet(pod);
  const notReadyPod = (p: Pod) => { p.status!.conditions = [{ type: 'Ready', status: 'False' }]; return p; };
  assert.equal(needsFlip(v2, notReadyPod(structuredClone(started))), true, 'all containers ready is enough');
  const appDown = notReadyPod(structuredClone(started));
  appDown.status!.containerStatuses!.find((c) => c.name === 'app')!.ready = false;
  assert.equal(needsFlip(v2, appDown), false);
  const idleDown = notReadyPod(structuredClone(started));
  idleDown.status!.containerStatuses!.find((c) => c.name === 'sidecar-1')!.ready = false;
  assert.equal(needsFlip(v2, idleDown), true, 'the old slot does not count');
});
