// Pre-pull before the in-place restart, against the recorded in-memory API: the NodeImage tag owned by the
// SidecarSet, the batch held until the node reports the image, and the bounded wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { ImagePullJobSecretReferencesAnnotation } from '../../shared/api/image-pull-job.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { image, kubelet, makePod, makeSet, withImage } from './fixtures.js';
import { PrePullAnnotation } from './prepull.js';
import { DAEMON_NAMESPACE, harness } from './reconcile-harness.js';
import type { Pod } from '../../shared/api/meta.js';

const annotate = (set: SidecarSet): SidecarSet => ({ ...set, metadata: { ...set.metadata, annotations: { ...set.metadata?.annotations, [PrePullAnnotation]: 'true' } } });
const v1 = annotate(makeSet({ strategy: { maxUnavailable: 1 } }));
const v2 = annotate(withImage(v1, 'busybox:2.0'));

function setup() {
  const h = harness(v1, ['a', 'b'].map((n) => kubelet(makePod(n, [v1]))), { nodeImages: true });
  h.api.put('nodeimages', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'n1', resourceVersion: '1' }, spec: {} } as never);
  return h;
}

test('the batch waits for its node to pull the new image through a NodeImage tag the SidecarSet owns, then goes', async () => {
  const h = setup();
  await h.run();
  h.world.set = { ...v2, status: h.world.set.status };
  assert.deepEqual(await h.run(), { requeueAfterMs: 2000 });
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods') || l.includes('nodeimages')), ['PUT nodeimages n1']);
  const ni = h.api.table('nodeimages').get('n1') as NodeImage;
  const tag = ni.spec!.images!.busybox!.tags[0]!;
  assert.equal(tag.tag, '2.0');
  assert.deepEqual(tag.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', name: 'scs', uid: 'uid-scs' }]);
  assert.equal(tag.pullPolicy?.ttlSecondsAfterFinished, 600);

  // Still pulling: nothing more is written.
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods') || l.includes('nodeimages')), []);

  h.api.put('nodeimages', { ...ni, status: { desired: 1, succeeded: 1, failed: 0, pulling: 0, waiting: 0, imageStatuses: { busybox: { tags: [{ tag: '2.0', phase: 'Succeeded' }] } } } } as never);
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods a']);
  assert.equal(image(h.api.table('pods').get('default/a') as Pod, 'sidecar'), 'busybox:2.0');
});

test('without the annotation nothing is pulled ahead: the batch goes at once, as upstream', async () => {
  const h = harness(makeSet({ strategy: { maxUnavailable: 1 } }), ['a'].map((n) => kubelet(makePod(n, [makeSet()]))), { nodeImages: true });
  h.api.put('nodeimages', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'n1', resourceVersion: '1' }, spec: {} } as never);
  await h.run();
  h.world.set = { ...withImage(makeSet({ strategy: { maxUnavailable: 1 } }), 'busybox:2.0'), status: h.world.set.status };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods ') || l.includes('nodeimages')), ['PATCH pods a']);
});

test('the SidecarSet imagePullSecrets reach the daemon as copies in its namespace, listed on the pre-pull tag, released when the rollout is over', async () => {
  const withSecrets = (s: SidecarSet): SidecarSet => ({ ...s, spec: { ...s.spec!, imagePullSecrets: [{ name: 'regcred' }, { name: 'absent' }] } });
  const h = harness(withSecrets(v1), ['a'].map((n) => kubelet(makePod(n, [v1]))), { nodeImages: true, pullSecrets: true });
  h.api.put('nodeimages', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'n1', resourceVersion: '1' }, spec: {} } as never);
  h.api.put('secrets', { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/dockerconfigjson', metadata: { name: 'regcred', namespace: 'default', uid: 'uid-regcred' },
    data: { '.dockerconfigjson': 'e30=' } } as never);
  await h.run();
  assert.equal(h.api.table('secrets').size, 1, 'nothing copied before there is something to pull');
  h.world.set = { ...withSecrets(v2), status: h.world.set.status };
  await h.run();
  const copies = [...h.api.table('secrets').values()].filter((s) => s.metadata?.namespace === DAEMON_NAMESPACE) as V1Secret[];
  assert.equal(copies.length, 1);
  const copy = copies[0]!;
  assert.match(copy.metadata!.name!, /^regcred-[0-9a-f]{6}$/);
  assert.deepEqual(copy.data, { '.dockerconfigjson': 'e30=' });
  assert.equal(copy.type, 'kubernetes.io/dockerconfigjson');
  assert.equal(copy.metadata!.annotations![ImagePullJobSecretReferencesAnnotation], 'default/SidecarSet:scs');
  const ni = h.api.table('nodeimages').get('n1') as NodeImage;
  assert.deepEqual(ni.spec!.images!.busybox!.pullSecrets, [{ namespace: DAEMON_NAMESPACE, name: copy.metadata!.name, mode: 'batch' }]);

  // Pulled → the pod goes; the kubelet runs it → the rollout is over and the copy goes.
  h.api.put('nodeimages', { ...ni, status: { desired: 1, succeeded: 1, failed: 0, pulling: 0, waiting: 0, imageStatuses: { busybox: { tags: [{ tag: '2.0', phase: 'Succeeded' }] } } } } as never);
  await h.run();
  assert.ok(h.api.log.includes('PATCH pods a'), h.api.log.join('\n'));
  h.kubelet();
  await h.run();
  assert.ok(h.api.log.includes(`DELETE secrets ${copy.metadata!.name}`), h.api.log.join('\n'));
  assert.deepEqual([...h.api.table('secrets').keys()], ['default/regcred'], 'the source stays');
});
