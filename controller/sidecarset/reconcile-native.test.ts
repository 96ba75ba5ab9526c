// Native sidecars (init containers with restartPolicy Always) updated in place (kruise-ts extension), against the
// recorded in-memory API: what is written, the sidecar's own restart counted as the disruption (the pod stays Ready),
// updatedPods once kubelet runs the new image, resizes, and what stays for new pods only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarContainer, SidecarSet, SidecarSetStatus } from '../../shared/api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetInPlaceUpdateStateAnnotation } from '../../shared/api/sidecarset.js';
import { kubelet, makePod, makeSet, rehash } from './fixtures.js';
import { harness } from './reconcile-harness.js';

const native: SidecarContainer = { name: 'native', image: 'busybox:1.0', command: ['sleep', '1d'], restartPolicy: 'Always',
  resources: { requests: { cpu: '100m', memory: '64Mi' } } };
const v1 = makeSet({ containers: [], initContainers: [native], strategy: { maxUnavailable: 1 } });
const next = (change: Partial<SidecarContainer>, strategy = v1.spec!.updateStrategy!, inits?: SidecarContainer[]): SidecarSet => {
  const set = makeSet({ containers: [], initContainers: inits ?? [{ ...native, ...change }], strategy });
  return rehash({ ...set, metadata: { ...set.metadata, generation: 2 } });
};
const pods = (n = 3, set = v1) => ['a', 'b', 'c'].slice(0, n).map((name) => kubelet(makePod(name, [set])));

/** A harness whose v1 revision is stored, then the SidecarSet changed to `to`. */
async function changedTo(to: SidecarSet, start = pods()) {
  const h = harness(v1, start);
  await h.run();
  h.world.set = { ...to, status: h.world.set.status };
  return h;
}
type H = Awaited<ReturnType<typeof changedTo>>;
const lastStatus = (h: H) =>
  (h.api.bodies.filter((b) => (b as { status?: { matchedPods?: number } }).status?.matchedPods !== undefined).at(-1) as { status: SidecarSetStatus }).status;
const stored = (h: H, name: string) => h.api.table('pods').get(`default/${name}`) as Pod;
const nativeOf = (pod: Pod) => pod.spec!.initContainers!.find((c) => c.name === 'native')!;
const podWrites = (h: H) => h.api.log.filter((l) => l.includes('pods'));

test('injection records native sidecars in the hash entry\'s sidecar list (the controller finds them there)', () => {
  const pod = makePod('a', [v1]);
  assert.equal(nativeOf(pod).image, 'busybox:1.0');
  const entry = JSON.parse(pod.metadata!.annotations![SidecarSetHashAnnotation]!).scs;
  assert.deepEqual(entry.sidecarList, ['native']);
  assert.equal(entry.hash, v1.metadata!.annotations![SidecarSetHashAnnotation]);
});

test('image change: spec.initContainers patched in place, one pod per batch, main containers untouched', async () => {
  const v2 = next({ image: 'busybox:2.0' });
  const h = await changedTo(v2);
  await h.run();
  assert.deepEqual(podWrites(h), ['PATCH pods a', 'PATCH pods/status a']);
  const a = stored(h, 'a');
  assert.equal(nativeOf(a).image, 'busybox:2.0');
  assert.equal(a.spec!.containers.find((c) => c.name === 'app')!.image, 'nginx:1.0');
  const patch = h.api.bodies.find((b) => (b as { spec?: { initContainers?: unknown } }).spec?.initContainers) as { spec: Record<string, unknown> };
  assert.deepEqual(patch.spec, { initContainers: [{ name: 'native', image: 'busybox:2.0' }] }, 'only the native sidecar\'s image');
  assert.equal(JSON.parse(a.metadata!.annotations![SidecarSetHashAnnotation]!).scs.hash, v2.metadata!.annotations![SidecarSetHashAnnotation]);
  const state = JSON.parse(a.metadata!.annotations![SidecarSetInPlaceUpdateStateAnnotation]!).scs;
  assert.match(state.lastContainerStatuses.native.imageID, /busybox:1\.0@sha256:/, 'the pre-update imageID, from initContainerStatuses');
});

test('the sidecar\'s own restart is the disruption: the pod stays Ready, yet the next pod waits until the new sidecar serves', async () => {
  const h = await changedTo(next({ image: 'busybox:2.0' }));
  await h.run();
  // The cache shows the patch; kubelet has not restarted the sidecar yet (old imageID), the pod is still Ready.
  h.sync();
  await h.run();
  assert.ok(stored(h, 'a').status!.conditions!.some((c) => c.type === 'Ready' && c.status === 'True'));
  assert.deepEqual(podWrites(h), [], 'a is unavailable: b waits');
  assert.equal(lastStatus(h).updatedPods, 0, 'not counted before kubelet runs the new image');
  // Kubelet is restarting it: new image, not started yet.
  h.kubelet(['a'], { nativeDown: ['native'] });
  await h.run();
  assert.deepEqual(podWrites(h), [], 'still restarting: b waits');
  assert.equal(lastStatus(h).readyPods, 2, 'a not counted ready while its native sidecar is down');
  h.kubelet(['a']);
  await h.run();
  assert.equal(lastStatus(h).updatedPods, 1);
  assert.equal(lastStatus(h).readyPods, 3);
  assert.deepEqual(podWrites(h), ['PATCH pods b', 'PATCH pods/status b']);
  assert.equal(stored(h, 'a').status!.initContainerStatuses![0]!.restartCount, 1);
  assert.equal(stored(h, 'a').status!.containerStatuses!.find((s) => s.name === 'app')!.restartCount, 0);
});

test('partition and paused hold native sidecars back as they hold containers', async () => {
  const h = await changedTo(next({ image: 'busybox:2.0' }, { maxUnavailable: 3, partition: 2 }));
  await h.run();
  assert.deepEqual(podWrites(h).filter((l) => !l.includes('status')), ['PATCH pods a'], 'three pods, partition 2: one');
  const p = await changedTo(next({ image: 'busybox:2.0' }, { paused: true }));
  await p.run();
  assert.deepEqual(podWrites(p), []);
});

test('resources change: resized through pods/resize (spec.initContainers), hashes once kubelet applied it, one event per batch', async () => {
  const v2 = next({ resources: { requests: { cpu: '200m', memory: '64Mi' } } }, { maxUnavailable: 2 });
  const h = await changedTo(v2);
  await h.run();
  assert.deepEqual(podWrites(h), ['PATCH pods/resize a', 'PATCH pods/resize b']);
  const body = h.api.bodies.find((b) => (b as { spec?: { initContainers?: unknown } }).spec?.initContainers);
  assert.deepEqual(body, { spec: { initContainers: [{ name: 'native', resources: { requests: { cpu: '200m' } } }] } });
  assert.deepEqual(h.events, ['Normal SidecarResized SidecarSet/scs'], 'one event for the batch of two');
  h.kubelet();
  await h.run();
  assert.deepEqual(podWrites(h).sort(), ['PATCH pods a', 'PATCH pods b', 'PATCH pods/resize c', 'PATCH pods/status a', 'PATCH pods/status b']);
  assert.equal(stored(h, 'a').status!.initContainerStatuses![0]!.restartCount, 0, 'resized without a restart');
  assert.equal(JSON.parse(stored(h, 'a').metadata!.annotations![SidecarSetHashAnnotation]!).scs.hash, v2.metadata!.annotations![SidecarSetHashAnnotation]);
});

test('an env change of a native sidecar, or an image change of a plain init container next to it: new pods only', async () => {
  const env = await changedTo(next({ env: [{ name: 'A', value: '1' }] }));
  await env.run();
  assert.deepEqual(podWrites(env).filter((l) => !l.includes('status')), []);

  const plain: SidecarContainer = { name: 'setup', image: 'busybox:1.0', command: ['true'] };
  const withPlain = makeSet({ containers: [], initContainers: [plain, native], strategy: { maxUnavailable: 1 } });
  const h = harness(withPlain, pods(3, withPlain));
  await h.run();
  const changed = makeSet({ containers: [], initContainers: [{ ...plain, image: 'busybox:2.0' }, native], strategy: { maxUnavailable: 1 } });
  h.world.set = { ...rehash({ ...changed, metadata: { ...changed.metadata, generation: 2 } }), status: h.world.set.status };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), [], 'no pod write');
  assert.equal(h.api.log.filter((l) => l.startsWith('PATCH pods/status')).length, 3, 'SidecarSetUpgradable=False on each pod');
});

test('a native sidecar added to the SidecarSet: pods injected before lack it and stay counted ready (new pods only)', async () => {
  const plainSet = makeSet({ strategy: { maxUnavailable: 1 } });
  const h = harness(plainSet, ['a', 'b'].map((n) => kubelet(makePod(n, [plainSet]))));
  await h.run();
  const added = makeSet({ initContainers: [native], strategy: { maxUnavailable: 1 } });
  h.world.set = { ...rehash({ ...added, metadata: { ...added.metadata, generation: 2 } }), status: h.world.set.status };
  await h.run();
  assert.equal(lastStatus(h).readyPods, 2);
  assert.equal(lastStatus(h).updatedPods, 0);
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), [], 'not written: initContainers changed');
});
