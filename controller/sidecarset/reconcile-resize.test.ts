// In-place sidecar resources through pods/resize, against the recorded in-memory API: the batches, the bookkeeping
// on the pod, when the pod counts as updated, and what a refusal leaves behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarContainer, SidecarSet, SidecarSetCondition, SidecarSetStatus } from '../../shared/api/sidecarset.js';
import { SidecarSetConditionsAnnotation, SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../../shared/api/sidecarset.js';
import { kubelet, makePod, makeSet, rehash } from './fixtures.js';
import { InPlaceResizeAnnotation } from './pod-change.js';
import { harness } from './reconcile-harness.js';

const sidecar: SidecarContainer = { name: 'sidecar', image: 'busybox:1.0', command: ['sleep', '1d'],
  resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } };
const v1 = makeSet({ containers: [sidecar], strategy: { maxUnavailable: 1 } });
const next = (change: Partial<SidecarContainer>, annotations: Record<string, string> = {}): SidecarSet => {
  const set = makeSet({ containers: [{ ...sidecar, ...change }], strategy: { maxUnavailable: 1 } });
  return rehash({ ...set, metadata: { ...set.metadata, generation: 2, annotations: { ...set.metadata?.annotations, ...annotations } } });
};
const cpu = { resources: { requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '300m', memory: '128Mi' } } };
const three = () => ['a', 'b', 'c'].map((n) => kubelet(makePod(n, [v1])));

/** A harness whose v1 revision is stored, then the SidecarSet changed to `to`. */
async function changedTo(to: SidecarSet) {
  const h = harness(v1, three());
  await h.run();
  h.world.set = { ...to, status: h.world.set.status };
  return h;
}
const lastStatus = (h: Awaited<ReturnType<typeof changedTo>>) =>
  (h.api.bodies.filter((b) => (b as { status?: { matchedPods?: number } }).status?.matchedPods !== undefined).at(-1) as { status: SidecarSetStatus }).status;
/** The conditions of the last write of the conditions annotation (OpenKruise's status has no room for them). */
const lastConditions = (h: Awaited<ReturnType<typeof changedTo>>): SidecarSetCondition[] => {
  const body = h.api.bodies.filter((b) => (b as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations?.[SidecarSetConditionsAnnotation] !== undefined).at(-1) as
    { metadata: { annotations: Record<string, string | null> } } | undefined;
  const text = body?.metadata.annotations[SidecarSetConditionsAnnotation];
  return text ? JSON.parse(text) : [];
};
const stored = (h: Awaited<ReturnType<typeof changedTo>>, name: string) => h.api.table('pods').get(`default/${name}`) as Pod;
const sidecarOf = (pod: Pod) => pod.spec!.containers.find((c) => c.name === 'sidecar')!;

test('resources only: resized through pods/resize one batch at a time, hashes recorded once kubelet applied it, counted then', async () => {
  const v2 = next(cpu);
  const h = await changedTo(v2);
  assert.deepEqual(await h.run(), { requeueAfterMs: 1000 }, 'the bookkeeping write comes in a later round');
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods/resize a']);
  assert.deepEqual(sidecarOf(stored(h, 'a')).resources, cpu.resources, 'the resize changed the spec');
  assert.deepEqual(h.events, ['Normal SidecarResized SidecarSet/scs'], 'one event for the batch, on the SidecarSet');

  // The cache does not show the resize yet: the round waits for it (no second resize of the same pod).
  assert.deepEqual(await h.run(), { requeueAfterMs: 1000 });
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), []);

  // The cache shows it, kubelet has not applied it: the pod holds the one unavailable slot, no hash written yet.
  h.kubelet(['a'], { resize: 'pending' });
  await h.run();
  assert.equal(lastStatus(h).updatedPods, 0);
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), [], 'the next pod waits');

  // Kubelet applied it: the bookkeeping write from the cache (no GET), and the next pod's resize in the same round.
  h.kubelet(['a']);
  const reads: string[] = [];
  const { find, get } = h.api.rest;
  h.api.rest.find = (async (r, o) => { reads.push(`find ${r.plural} ${o.name}`); return find(r, o); }) as typeof find;
  h.api.rest.get = (async (r, o) => { reads.push(`get ${r.plural} ${o.name}`); return get(r, o); }) as typeof get;
  assert.deepEqual(await h.run(), { requeueAfterMs: 1000 }, 'no pod event follows the write: the round that counts it is requeued');
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods a', 'PATCH pods/status a', 'PATCH pods/resize b']);
  assert.deepEqual(reads.filter((r) => r.includes('pods')), [], 'no pod read back');
  const a = stored(h, 'a');
  assert.equal(sidecarOf(a).image, 'busybox:1.0', 'no image change, so no restart');
  const annotations = a.metadata!.annotations!;
  assert.equal(JSON.parse(annotations[SidecarSetHashAnnotation]!).scs.hash, v2.metadata!.annotations![SidecarSetHashAnnotation]);
  assert.equal(JSON.parse(annotations[SidecarSetHashWithoutImageAnnotation]!).scs.hash, v2.metadata!.annotations![SidecarSetHashWithoutImageAnnotation]);
  h.sync();
  await h.run();
  assert.equal(lastStatus(h).updatedPods, 1);
  assert.equal(stored(h, 'a').status!.containerStatuses!.find((s) => s.name === 'sidecar')!.restartCount, 0);
});

test('image and resources together: the resize, then (once applied) the image update, the pod counted unavailable throughout', async () => {
  const h = await changedTo(next({ ...cpu, image: 'busybox:2.0' }));
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods/resize a']);
  h.kubelet(['a']);
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods a', 'PATCH pods/status a'], 'b waits: a restarts for its image');
  assert.equal(sidecarOf(stored(h, 'a')).image, 'busybox:2.0');
  assert.deepEqual(sidecarOf(stored(h, 'a')).resources, cpu.resources);
});

test('partition and paused hold resizes back as they hold image updates', async () => {
  const partitioned = next(cpu);
  partitioned.spec!.updateStrategy = { maxUnavailable: 3, partition: 2 };
  const h = await changedTo(rehash(partitioned));
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods/resize')), ['PATCH pods/resize a'], 'three pods, partition 2: one');
  const paused = next(cpu);
  paused.spec!.updateStrategy = { paused: true };
  const p = await changedTo(rehash(paused));
  await p.run();
  assert.deepEqual(p.api.log.filter((l) => l.includes('pods')), []);
});

test('Infeasible on the node: reported on the pod and the SidecarSet once, never re-sent, and the rollout waits', async () => {
  const h = await changedTo(next(cpu));
  await h.run();
  h.kubelet(['a'], { resize: 'infeasible' });
  h.events.length = 0;
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), [], 'no second resize, no next pod');
  const condition = lastConditions(h).find((c) => c.type === 'InPlaceResize');
  assert.equal(condition?.reason, 'ResizeInfeasible');
  const setStatuses = h.api.bodies.map((b) => (b as { status?: { matchedPods?: number } }).status).filter((st) => st?.matchedPods !== undefined);
  assert.ok(setStatuses.length > 0 && setStatuses.every((st) => !('conditions' in st!)), 'no status.conditions: OpenKruise\'s SidecarSetStatus has none');
  assert.match(condition!.message, /^1 pod\(s\) cannot get the new sidecar resources on their node, the rollout waits for them: Node didn't have enough capacity.*\(default\/a\)$/);
  assert.deepEqual(h.events, ['Warning SidecarResizeInfeasible Pod/a', 'Warning ResizeInfeasible SidecarSet/scs']);
  h.world.set = { ...h.world.set, status: lastStatus(h),
    metadata: { ...h.world.set.metadata, annotations: { ...h.world.set.metadata?.annotations, [SidecarSetConditionsAnnotation]: JSON.stringify(lastConditions(h)) } } };
  h.events.length = 0;
  await h.run();
  assert.deepEqual(h.events, [], 'reported once');
  assert.equal(lastStatus(h).updatedPods, 0);
});

test('no pods/resize in the cluster (404 for a pod that exists): reported on the SidecarSet, not retried, pods marked not upgradable', async () => {
  const h = await changedTo(next(cpu));
  h.api.resizeAnswer.code = 404;
  assert.deepEqual(await h.run(), { requeueAfterMs: 1000 });
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods/resize a']);
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods/status a', 'PATCH pods/status b', 'PATCH pods/status c'], 'SidecarSetUpgradable=False, no resize');
  const condition = lastConditions(h).find((c) => c.type === 'InPlaceResize');
  assert.equal(condition?.reason, 'ResizeUnsupported');
  assert.ok(h.events.includes('Warning ResizeUnsupported SidecarSet/scs'), h.events.join());
});

test('the API refuses one pod\'s resize (422): an event on the pod, not retried for this revision, the others go on', async () => {
  const h = await changedTo(next(cpu));
  h.api.resizeAnswer.code = 422;
  await h.run();
  assert.deepEqual(h.events, ['Warning SidecarResizeRefused Pod/a']);
  h.api.resizeAnswer.code = undefined;
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods/resize')), ['PATCH pods/resize b']);
  const condition = lastConditions(h).find((c) => c.type === 'InPlaceResize');
  assert.equal(condition?.reason, 'ResizeRefused');
  assert.match(condition!.message, /\(default\/a\)$/);
});

test('env changed: upstream\'s rule (new pods only), said on the SidecarSet with the field named', async () => {
  const h = await changedTo(next({ ...cpu, env: [{ name: 'A', value: '1' }] }));
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods/resize')), []);
  const condition = lastConditions(h).find((c) => c.type === 'InPlaceUpdate');
  assert.equal(condition?.reason, 'NewPodsOnly');
  assert.equal(condition?.message, '3 pod(s) keep their sidecars until recreated: env changed, which only new pods get (default/a, default/b, default/c)');
});

test(`${InPlaceResizeAnnotation}: "false" keeps upstream's behaviour for resources too`, async () => {
  const h = await changedTo(next(cpu, { [InPlaceResizeAnnotation]: 'false' }));
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods/resize')), []);
  assert.match(lastConditions(h).find((c) => c.type === 'InPlaceUpdate')!.message, /in-place resize is off/);
});
