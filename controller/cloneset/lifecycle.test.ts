// The CloneSet controller with lifecycle hooks (spec/cloneset.md §3.9) against the fake apiserver: preDelete holds a
// scaled-in pod in PreparingDelete until the hook goes; inPlaceUpdate holds the update in PreparingUpdate; the
// markPodNotReady holders on KruisePodReady; Updated → Normal when the hook is back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CloneSetHarness, condition, state, webCloneSet } from './test-harness.js';

const FINALIZER = 'example.com/pre-delete';

describe('cloneset-controller lifecycle hooks', () => {
  it('preDelete (finalizer, markPodNotReady): a scaled-in pod waits in PreparingDelete, not ready, until the finalizer is removed', async () => {
    const h = new CloneSetHarness(webCloneSet((cs) => {
      cs.spec!.template.metadata!.finalizers = [FINALIZER];
      cs.spec!.lifecycle = { preDelete: { finalizersHandler: [FINALIZER], markPodNotReady: true } };
    }));
    await h.settle();
    assert.equal(h.pods().length, 3);
    assert.ok(h.pods().every((p) => state(p) === 'Normal'));
    await h.editCloneSet((cs) => { cs.spec!.replicas = 2; });
    await h.settle();
    const held = h.pods().filter((p) => state(p) === 'PreparingDelete');
    assert.equal(held.length, 1, 'one pod parked, none deleted');
    assert.equal(h.pods().length, 3);
    const kpr = condition(held[0], 'KruisePodReady');
    assert.equal(kpr?.status, 'False');
    assert.equal(kpr?.message, '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]');
    assert.equal(condition(held[0], 'Ready')?.status, 'False');
    assert.equal(h.cloneSet().status?.availableReplicas, 2, 'a PreparingDelete pod is not available');

    await h.editPod(held[0]!.metadata!.name!, (p) => { p.metadata!.finalizers = []; });
    await h.settle();
    assert.equal(h.pods().length, 2);
    assert.ok(!h.pods().some((p) => p.metadata?.name === held[0]!.metadata!.name));
    assert.equal(h.events.filter((e) => e.reason === 'SuccessfulDelete').length, 1);
  });

  it('preDelete: replicas raised again before the hook goes → the pod returns to PreparingNormal, then Normal', async () => {
    const h = new CloneSetHarness(webCloneSet((cs) => {
      cs.spec!.template.metadata!.labels!.hold = 'true';
      cs.spec!.lifecycle = { preDelete: { labelsHandler: { hold: 'true' } } };
    }));
    await h.settle();
    await h.editCloneSet((cs) => { cs.spec!.replicas = 2; });
    await h.settle();
    const held = h.pods().find((p) => state(p) === 'PreparingDelete');
    assert.ok(held);
    await h.editCloneSet((cs) => { cs.spec!.replicas = 3; });
    await h.settle();
    assert.equal(h.pods().length, 3);
    assert.equal(state(h.pods().find((p) => p.metadata?.name === held.metadata?.name)), 'Normal', 'the same pod is kept');
  });

  it('inPlaceUpdate (label, markPodNotReady): the update waits in PreparingUpdate until released, then Updated until the hook is back', async () => {
    const h = new CloneSetHarness(webCloneSet((cs) => {
      cs.spec!.replicas = 1;
      cs.spec!.template.metadata!.labels!.hold = 'true';
      cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible' };
      cs.spec!.lifecycle = { inPlaceUpdate: { labelsHandler: { hold: 'true' }, markPodNotReady: true } };
    }));
    await h.settle();
    const name = h.pods()[0]!.metadata!.name!;
    await h.editCloneSet((cs) => { cs.spec!.template.spec!.containers[0]!.image = 'nginx:2'; });
    await h.settle();
    let p = h.pods()[0]!;
    assert.equal(state(p), 'PreparingUpdate');
    assert.equal(p.spec?.containers[0]?.image, 'nginx:1', 'the image waits for the hook');
    assert.equal(condition(p, 'KruisePodReady')?.message, '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]');
    assert.equal(condition(p, 'KruisePodReady')?.status, 'False');

    await h.editPod(name, (x) => { delete x.metadata!.labels!.hold; });
    await h.settle();
    p = h.pods()[0]!;
    assert.equal(p.metadata?.name, name, 'updated in place');
    assert.equal(p.spec?.containers[0]?.image, 'nginx:2');
    assert.equal(state(p), 'Updated', 'the hook is not all-hooked: Updated until it comes back');
    assert.equal(condition(p, 'KruisePodReady')?.status, 'True', 'Updated releases the preUpdateHook holder');
    assert.equal(condition(p, 'KruisePodReady')?.message, '[]');

    await h.editPod(name, (x) => { x.metadata!.labels!.hold = 'true'; });
    await h.settle();
    assert.equal(state(h.pods()[0]), 'Normal');
  });

  it('inPlaceUpdate: an Updated pod due another update goes to PreparingUpdate with the hook put back', async () => {
    const h = new CloneSetHarness(webCloneSet((cs) => {
      cs.spec!.replicas = 1;
      cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible' };
      cs.spec!.lifecycle = { inPlaceUpdate: { labelsHandler: { hold: 'true' }, finalizersHandler: ['example.com/upd'] } };
    }));
    await h.settle();
    await h.editCloneSet((cs) => { cs.spec!.template.spec!.containers[0]!.image = 'nginx:2'; });
    await h.settle();
    assert.equal(state(h.pods()[0]), 'Updated', 'not hooked: updated at once, then Updated (hook not all-hooked)');
    await h.editCloneSet((cs) => { cs.spec!.template.spec!.containers[0]!.image = 'nginx:3'; });
    await h.settle();
    const p = h.pods()[0]!;
    assert.equal(state(p), 'PreparingUpdate');
    assert.equal(p.metadata?.labels?.hold, 'true');
    assert.deepEqual(p.metadata?.finalizers, ['example.com/upd']);
    assert.equal(p.spec?.containers[0]?.image, 'nginx:2');
  });

  it('preNormal: a new pod stays PreparingNormal until all of the hook is on it', async () => {
    const h = new CloneSetHarness(webCloneSet((cs) => {
      cs.spec!.replicas = 1;
      cs.spec!.lifecycle = { preNormal: { labelsHandler: { ok: 'yes' }, finalizersHandler: ['example.com/normal'] } };
    }));
    await h.settle();
    const name = h.pods()[0]!.metadata!.name!;
    assert.equal(state(h.pods()[0]), 'PreparingNormal');
    await h.editPod(name, (p) => { p.metadata!.labels!.ok = 'yes'; });
    await h.settle();
    assert.equal(state(h.pods()[0]), 'PreparingNormal', 'one of two is not enough');
    await h.editPod(name, (p) => { p.metadata!.finalizers = ['example.com/normal']; });
    await h.settle();
    assert.equal(state(h.pods()[0]), 'Normal');
    assert.equal(h.cloneSet().status?.availableReplicas, 1);
  });
});
