// The reconcile against a recorded in-memory API: which writes happen, in which order, for each step of a rollout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { image, kubelet, makePod, makeSet, withImage } from './fixtures.js';
import { harness } from './reconcile-harness.js';

const v1 = makeSet();
const three = () => ['a', 'b', 'c'].map((n) => kubelet(makePod(n, [v1])));

test('a new SidecarSet: its first revision is recorded and the status written; no pod is touched', async () => {
  const h = harness(v1, three());
  assert.equal(await h.run(), undefined);
  assert.deepEqual(h.api.log.map((l) => l.replace(/scs-\w+/, 'scs-<hash>')), ['POST controllerrevisions scs-<hash>', 'PATCH sidecarsets/status scs']);
  const status = (h.api.bodies.at(-1) as { status: Record<string, unknown> }).status;
  assert.deepEqual({ ...status, latestRevision: undefined }, { observedGeneration: 1, matchedPods: 3, updatedPods: 3, readyPods: 3, updatedReadyPods: 3, latestRevision: undefined, collisionCount: 0 });
});

test('a rollout with maxUnavailable 1: one pod per round, each after kubelet has applied the previous one', async () => {
  const h = harness(v1, three());
  await h.run();
  h.world.set = { ...withImage(v1, 'busybox:2.0'), status: h.world.set.status };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods a', 'PATCH pods/status a']);

  // The cache has not seen the write yet: wait, write nothing.
  assert.deepEqual(await h.run(), { requeueAfterMs: 1000 });
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), []);

  // Seen, but kubelet has not restarted the sidecar: it uses the budget.
  h.sync();
  assert.equal(await h.run(), undefined);
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), []);

  // Kubelet applied it: the next pod goes.
  h.kubelet(['a']);
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods b']);
  assert.equal(image(h.api.table('pods').get('default/b') as Pod, 'sidecar'), 'busybox:2.0');
});

test('paused and NotUpdate write status but update no pod; updatedPods ≥ matchedPods stops too', async () => {
  for (const strategy of [{ paused: true }, { type: 'NotUpdate' }]) {
    const h = harness(v1, three());
    h.world.set = withImage({ ...v1, spec: { ...v1.spec, updateStrategy: strategy } }, 'busybox:2.0');
    await h.run();
    assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), [], JSON.stringify(strategy));
  }
});

test('pods that need more than an image change are marked not upgradable, with events on the SidecarSet', async () => {
  const h = harness(v1, three());
  const other = makeSet({ containers: [{ name: 'sidecar', image: 'busybox:1.0', command: ['other'] }] });
  h.world.set = { ...other, metadata: { ...other.metadata, generation: 2 } };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.includes('pods')), ['PATCH pods/status a', 'PATCH pods/status b', 'PATCH pods/status c']);
  assert.deepEqual(h.events, ['Warning NewPodsOnly SidecarSet/scs', 'Normal NotUpgradablePods SidecarSet/scs']);
});

test('hot upgrade: after kubelet ran the new slot, the old one is reset with a ResetContainerSucceed event on the pod', async () => {
  const hot = makeSet({ hot: true });
  const h = harness(hot, [kubelet(makePod('a', [hot]))]);
  h.world.set = withImage(hot, 'busybox:2.0');
  await h.run();
  assert.equal(image(h.api.table('pods').get('default/a') as Pod, 'sidecar-2'), 'busybox:2.0');
  h.kubelet();
  await h.run();
  const pod = h.api.table('pods').get('default/a') as Pod;
  assert.equal(image(pod, 'sidecar-1'), 'empty:1.0');
  assert.deepEqual(h.events, ['Normal ResetContainerSucceed Pod/a']);
});

test('a stale cache: the pod another process already updated gets no second write (conflict, GET, nothing to do)', async () => {
  const h = harness(v1, three());
  await h.run();
  const v2 = { ...withImage(v1, 'busybox:2.0'), status: h.world.set.status };
  h.world.set = v2;
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods a']);
  // A new process: empty expectations, and a cache that has not seen the write to pod a yet.
  const fresh = harness(v2, h.world.pods);
  for (const p of h.api.table('pods').values()) fresh.api.put('pods', structuredClone(p));
  await fresh.run();
  assert.deepEqual(fresh.api.log.filter((l) => l.includes(' pods ')), ['PATCH pods a'], 'one attempt from the stale cache, refused');
  assert.equal(image(fresh.api.table('pods').get('default/a') as Pod, 'sidecar'), 'busybox:2.0');
  assert.equal((fresh.api.table('pods').get('default/b') as Pod).spec!.containers.find((c) => c.name === 'sidecar')!.image, 'busybox:1.0');
});

test('v1.9 order (#2011, #2156): a paused or NotUpdate hot-upgrade SidecarSet flips nothing, and a round that flips updates no other pod', async () => {
  const hot = makeSet({ hot: true });
  const h = harness(hot, ['a', 'b'].map((n) => kubelet(makePod(n, [hot]))));
  await h.run();
  const v2 = withImage(hot, 'busybox:2.0');
  h.world.set = { ...v2, status: h.world.set.status };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods a']);
  h.kubelet();
  for (const updateStrategy of [{ paused: true }, { type: 'NotUpdate' as const }]) {
    h.world.set = { ...v2, spec: { ...v2.spec, updateStrategy: { ...v2.spec?.updateStrategy, ...updateStrategy } }, status: h.world.set.status };
    await h.run();
    assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), [], JSON.stringify(updateStrategy));
    assert.equal(image(h.api.table('pods').get('default/a') as Pod, 'sidecar-1'), 'busybox:1.0', 'not flipped while stopped');
  }
  h.world.set = { ...v2, status: h.world.set.status };
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods a'], 'the flip alone');
  assert.equal(image(h.api.table('pods').get('default/a') as Pod, 'sidecar-1'), 'empty:1.0');
  h.kubelet(['a']);
  await h.run();
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ')), ['PATCH pods b'], 'the next round updates the next pod');
});
