import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { SidecarSetInPlaceUpdateStateAnnotation } from '../../shared/api/sidecarset.js';
import { kubelet, makePod, makeSet, NOW, withImage } from './fixtures.js';
import { hasSidecarContainers, isContainerImageEqual, isPodReadyForSet, isPodSidecarUpdated, isPodStateConsistent, upgradability } from './pod-state.js';
import { upgradePod } from './pod-upgrade.js';

const v1 = makeSet();
const v2 = withImage(v1, 'busybox:2.0');
const running = () => kubelet(makePod('p', [v1]));
const upgraded = () => {
  const pod = running();
  upgradePod(v2, pod, { now: NOW, injectedList: () => 'scs' });
  return pod;
};
const edit = (pod: Pod, f: (p: Pod) => void) => { f(pod); return pod; };
const digestImage = 'busybox@sha256:' + 'a'.repeat(64);

const consistency: { name: string; pod: () => Pod; set?: typeof v1; want: boolean }[] = [
  { name: 'a freshly injected, running pod is consistent (no in-place record)', pod: running, want: true },
  { name: 'a pod kubelet has not reported every container of is not', pod: () => makePod('p', [v1]), want: false },
  { name: 'right after the image change, before kubelet restarts the sidecar, it is not', pod: upgraded, set: v2, want: false },
  { name: 'once kubelet reports a new imageID it is again', pod: () => kubelet(upgraded()), set: v2, want: true },
  { name: 'a record that cannot be parsed makes it inconsistent', pod: () => edit(running(), (p) => (p.metadata!.annotations![SidecarSetInPlaceUpdateStateAnnotation] = '{')), want: false },
  {
    name: 'digest images: consistent when the status imageID has that digest (scheme and registry prefix aside)',
    pod: () => edit(kubelet(makePod('p', [withImage(v1, digestImage)])), (p) => {
      p.status!.containerStatuses!.find((s) => s.name === 'sidecar')!.imageID = `docker-pullable://docker.io/library/${digestImage}`;
    }),
    set: withImage(v1, digestImage),
    want: true,
  },
  {
    name: 'digest images: inconsistent while the status imageID has another digest',
    pod: () => edit(kubelet(makePod('p', [withImage(v1, digestImage)])), (p) => {
      p.status!.containerStatuses!.find((s) => s.name === 'sidecar')!.imageID = `docker.io/library/busybox@sha256:${'b'.repeat(64)}`;
    }),
    set: withImage(v1, digestImage),
    want: false,
  },
];
for (const tc of consistency) test(`consistency: ${tc.name}`, () => assert.equal(isPodStateConsistent(tc.set ?? v1, tc.pod()), tc.want));

test('updated means the pod carries the SidecarSet hash', () => {
  assert.equal(isPodSidecarUpdated(v1, running()), true);
  assert.equal(isPodSidecarUpdated(v2, running()), false);
  assert.equal(isPodSidecarUpdated(v2, upgraded()), true);
});

test('ready needs Running, Ready, no deletion', () => {
  assert.equal(isPodReadyForSet(v1, running()), true);
  assert.equal(isPodReadyForSet(v1, kubelet(makePod('p', [v1]), { ready: false })), false);
  assert.equal(isPodReadyForSet(v1, edit(running(), (p) => (p.metadata!.deletionTimestamp = NOW))), false);
});

test('hot upgrade: ready only while the idle slot runs the empty image', () => {
  const hot = makeSet({ hot: true });
  const pod = kubelet(makePod('p', [hot]));
  assert.equal(isPodReadyForSet(hot, pod), true);
  // Cached pods are never modified in place (pod-view.ts memoises by object): edit a copy.
  const upgrading = edit(structuredClone(pod), (p) => (p.spec!.containers.find((c) => c.name === 'sidecar-2')!.image = 'busybox:2.0'));
  assert.equal(isPodReadyForSet(hot, upgrading), false);
});

test('a pod lacking a sidecar container (or a hot-upgrade slot) is not managed', () => {
  const hot = makeSet({ hot: true });
  assert.equal(hasSidecarContainers(hot, makePod('p', [hot])), true);
  assert.equal(hasSidecarContainers(hot, edit(makePod('p', [hot]), (p) => p.spec!.containers.splice(1, 1))), false);
  assert.equal(hasSidecarContainers(v1, makePod('p', [])), false);
});

test('upgradability: only images may have changed since injection', () => {
  assert.deepEqual(upgradability(v2, running()), { canUpgrade: true, consistent: true });
  const commandChanged = structuredClone(v2);
  commandChanged.metadata!.annotations!['kruise.io/sidecarset-hash-without-image'] = 'other';
  assert.deepEqual(upgradability(commandChanged, running()), { canUpgrade: false, consistent: false });
});

test('upgradability: a ready sidecar still mid-update waits', () => {
  const v3 = withImage(v1, 'busybox:3.0');
  const pod = upgraded();
  assert.deepEqual(upgradability(v3, pod), { canUpgrade: true, consistent: false });
  assert.deepEqual(upgradability(v3, kubelet(pod)), { canUpgrade: true, consistent: true });
});

test('image equality: digests compare repository+digest, others repository+tag, names normalised', () => {
  assert.equal(isContainerImageEqual('busybox:1.0', 'docker.io/library/busybox:1.0'), true);
  assert.equal(isContainerImageEqual('busybox:1.0', 'busybox:1.1'), false);
  assert.equal(isContainerImageEqual(digestImage, `docker.io/library/${digestImage}`), true);
  assert.equal(isContainerImageEqual(digestImage, 'busybox:1.0'), false);
  assert.equal(isContainerImageEqual('Bad Image', 'Bad Image'), false);
});
