import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Lifecycle } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { pod, T0 } from './fixtures.js';
import {
  deleteAction, inPlaceGate, isAllHooked, isHooked, nextLifecycleState, readinessChangeFor, type InPlaceGate,
} from './lifecycle.js';
import { planScale } from './scale.js';
import { resolveStrategy } from './strategy-values.js';

const HOLD = { labelsHandler: { hold: 'true' }, finalizersHandler: ['example.com/hook'] };
const withHook = (p: Pod, labels = true, finalizer = true): Pod => {
  if (labels) p.metadata!.labels = { ...p.metadata!.labels, hold: 'true' };
  if (finalizer) p.metadata!.finalizers = ['example.com/hook'];
  return p;
};

describe('hooked / all-hooked', () => {
  it('hooked when any label pair or finalizer is present, all-hooked when all are; a missing hook is neither', () => {
    assert.equal(isHooked(HOLD, withHook(pod(), true, false)), true);
    assert.equal(isHooked(HOLD, withHook(pod(), false, true)), true);
    assert.equal(isHooked(HOLD, pod()), false);
    assert.equal(isHooked(HOLD, pod({ labels: { hold: 'false' } })), false, 'the label value must match');
    assert.equal(isAllHooked(HOLD, withHook(pod(), true, false)), false);
    assert.equal(isAllHooked(HOLD, withHook(pod())), true);
    assert.equal(isHooked(undefined, withHook(pod())), false);
    assert.equal(isAllHooked(undefined, withHook(pod())), false);
  });
});

describe('§3.9 transitions of Update step 1 (nextLifecycleState)', () => {
  const cases: { name: string; pod: Pod; lc: Lifecycle | undefined; want: string | undefined }[] = [
    { name: 'PreparingNormal stays without a preNormal hook while unscheduled (v1.9.0 HasPodScheduled; v1.8.4 moved at once)', pod: pod({ state: 'PreparingNormal', nodeName: '' }), lc: undefined, want: undefined },
    { name: 'PreparingNormal → Normal without a preNormal hook once scheduled', pod: pod({ state: 'PreparingNormal', nodeName: 'n1' }), lc: undefined, want: 'Normal' },
    { name: 'PreparingNormal stays while the preNormal hook is not all-hooked', pod: withHook(pod({ state: 'PreparingNormal' }), true, false), lc: { preNormal: HOLD }, want: undefined },
    { name: 'PreparingNormal → Normal once the preNormal hook is all-hooked', pod: withHook(pod({ state: 'PreparingNormal' })), lc: { preNormal: HOLD }, want: 'Normal' },
    { name: 'PreparingUpdate at an old revision stays (the in-place update runs from Update)', pod: pod({ state: 'PreparingUpdate', rev: 'old' }), lc: { inPlaceUpdate: HOLD }, want: undefined },
    { name: 'PreparingUpdate at the update revision (rolled back) → Updated when the hook is not all-hooked', pod: pod({ state: 'PreparingUpdate', rev: 'new' }), lc: { inPlaceUpdate: HOLD }, want: 'Updated' },
    { name: 'PreparingUpdate at the update revision, hook all-hooked → Normal', pod: withHook(pod({ state: 'PreparingUpdate', rev: 'new' })), lc: { inPlaceUpdate: HOLD }, want: 'Normal' },
    { name: 'Updating, complete, lifecycle set but no inPlaceUpdate hook → Updated', pod: pod({ state: 'Updating', rev: 'new' }), lc: { preDelete: HOLD }, want: 'Updated' },
    { name: 'Updating, complete, no lifecycle → Normal', pod: pod({ state: 'Updating', rev: 'new' }), lc: undefined, want: 'Normal' },
    { name: 'Updating, complete, inPlaceUpdate all-hooked → Normal', pod: withHook(pod({ state: 'Updating', rev: 'new' })), lc: { inPlaceUpdate: HOLD }, want: 'Normal' },
    { name: 'Updating, not complete (recorded imageID still running the old image) → stays', pod: updatingIncomplete(), lc: undefined, want: undefined },
    { name: 'Updated → Normal when the inPlaceUpdate hook is nil', pod: pod({ state: 'Updated', rev: 'new' }), lc: { preDelete: HOLD }, want: 'Normal' },
    { name: 'Updated stays while the inPlaceUpdate hook is not all-hooked', pod: pod({ state: 'Updated', rev: 'new' }), lc: { inPlaceUpdate: HOLD }, want: undefined },
    { name: 'Updated → Normal once all-hooked again', pod: withHook(pod({ state: 'Updated', rev: 'new' })), lc: { inPlaceUpdate: HOLD }, want: 'Normal' },
    { name: 'Normal stays', pod: pod({ state: 'Normal', rev: 'new' }), lc: { inPlaceUpdate: HOLD }, want: undefined },
    { name: 'PreparingDelete stays (Scale owns it)', pod: pod({ state: 'PreparingDelete', rev: 'new' }), lc: { preDelete: HOLD }, want: undefined },
  ];
  for (const tc of cases) it(tc.name, () => assert.equal(nextLifecycleState(tc.pod, tc.lc, 'new'), tc.want));
});

function updatingIncomplete(): Pod {
  const p = pod({ state: 'Updating', rev: 'new' });
  p.metadata!.annotations = { 'apps.kruise.io/inplace-update-state': JSON.stringify({ revision: 'new', updateTimestamp: '2025-06-01T12:00:00Z', lastContainerStatuses: { c1: { imageID: 'id' } } }) };
  p.spec!.containers[0]!.image = 'img2';
  return p;
}

describe('§3.7 step 6: an in-place update due, by state (inPlaceGate)', () => {
  const cases: { name: string; pod: Pod; lc: Lifecycle | undefined; want: InPlaceGate }[] = [
    { name: 'Normal, inPlaceUpdate hooked → PreparingUpdate', pod: withHook(pod({ state: 'Normal' }), true, false), lc: { inPlaceUpdate: HOLD }, want: { kind: 'prepare', readdHook: false } },
    { name: 'PreparingNormal, hooked → PreparingUpdate', pod: withHook(pod({ state: 'PreparingNormal' })), lc: { inPlaceUpdate: HOLD }, want: { kind: 'prepare', readdHook: false } },
    { name: 'Normal, not hooked → update at once', pod: pod({ state: 'Normal' }), lc: { inPlaceUpdate: HOLD }, want: { kind: 'update' } },
    { name: 'no state label, no lifecycle → update', pod: pod(), lc: undefined, want: { kind: 'update' } },
    { name: 'PreparingUpdate still hooked → wait', pod: withHook(pod({ state: 'PreparingUpdate' }), false, true), lc: { inPlaceUpdate: HOLD }, want: { kind: 'wait' } },
    { name: 'PreparingUpdate, hook released → update (Updating)', pod: pod({ state: 'PreparingUpdate' }), lc: { inPlaceUpdate: HOLD }, want: { kind: 'update' } },
    { name: 'Updated → PreparingUpdate with the hook labels and finalizers put back', pod: pod({ state: 'Updated' }), lc: { inPlaceUpdate: HOLD }, want: { kind: 'prepare', readdHook: true } },
    { name: 'Updated without an inPlaceUpdate hook → nothing', pod: pod({ state: 'Updated' }), lc: undefined, want: { kind: 'wait' } },
    { name: 'Updating → update continues', pod: pod({ state: 'Updating' }), lc: { inPlaceUpdate: HOLD }, want: { kind: 'update' } },
    { name: 'PreparingDelete → refused with upstream\'s message', pod: pod({ name: 'x', state: 'PreparingDelete' }), lc: undefined, want: { kind: 'refuse', message: 'not allowed to in-place update pod x in state PreparingDelete' } },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(inPlaceGate(tc.pod, tc.lc), tc.want));
});

describe('markPodNotReady holders (KruisePodReady)', () => {
  it('PreparingDelete and PreparingUpdate add their Lifecycle holder, Updated releases the update one, nothing without the flag', () => {
    assert.deepEqual(readinessChangeFor('PreparingDelete', true), { op: 'add', holder: { userAgent: 'Lifecycle', key: 'preDeleteHook' } });
    assert.deepEqual(readinessChangeFor('PreparingUpdate', true), { op: 'add', holder: { userAgent: 'Lifecycle', key: 'preUpdateHook' } });
    assert.deepEqual(readinessChangeFor('Updated', true), { op: 'remove', holder: { userAgent: 'Lifecycle', key: 'preUpdateHook' } });
    assert.equal(readinessChangeFor('Normal', true), undefined);
    assert.equal(readinessChangeFor('PreparingDelete', false), undefined);
  });
});

describe('§3.5 with a preDelete hook', () => {
  const lc: Lifecycle = { preDelete: HOLD };
  const three = () => ['a', 'b', 'c'].map((n) => withHook(pod({ name: n, rev: 'r', state: 'Normal' }), true, false));
  const s = (replicas: number) => resolveStrategy({ spec: { replicas, selector: {}, template: {}, updateStrategy: { maxUnavailable: 3 } } });
  const input = (pods: Pod[], replicas: number, lifecycle: Lifecycle | undefined = lc) =>
    ({ pods, currentRevision: 'r', updateRevision: 'r', strategy: s(replicas), podsToDelete: new Set<string>(), nowMs: T0, lifecycle });

  it('deleteAction: hooked → PreparingDelete, already there and hooked → hold, unhooked → delete', () => {
    assert.equal(deleteAction(withHook(pod({ state: 'Normal' })), lc), 'prepare-delete');
    assert.equal(deleteAction(withHook(pod({ state: 'PreparingDelete' })), lc), 'hold');
    assert.equal(deleteAction(pod({ state: 'PreparingDelete' }), lc), 'delete');
    assert.equal(deleteAction(withHook(pod({ state: 'Normal' })), undefined), 'delete');
  });

  it('scale-in of a hooked pod parks it in PreparingDelete instead of deleting it', () => {
    const plan = planScale(input(three(), 2));
    assert.equal(plan.kind, 'delete');
    assert.deepEqual(plan.kind === 'delete' && [plan.pods.length, plan.prepare.length], [0, 1]);
  });

  it('a PreparingDelete pod still hooked is held: nothing to do this round', () => {
    const pods = three();
    pods[0]!.metadata!.labels!['lifecycle.apps.kruise.io/state'] = 'PreparingDelete';
    assert.equal(planScale(input(pods, 2)).kind, 'none');
  });

  it('once the hook is removed the PreparingDelete pod is deleted', () => {
    const pods = three();
    pods[0] = pod({ name: 'a', rev: 'r', state: 'PreparingDelete' });
    const plan = planScale(input(pods, 2));
    assert.deepEqual(plan.kind === 'delete' && plan.pods.map((p) => p.metadata?.name), ['a']);
  });

  it('replicas raised again: a PreparingDelete pod that is not specified-delete goes back to PreparingNormal', () => {
    const pods = three();
    pods[0]!.metadata!.labels!['lifecycle.apps.kruise.io/state'] = 'PreparingDelete';
    const plan = planScale(input(pods, 3));
    assert.deepEqual(plan.kind === 'restore' && plan.pods.map((p) => p.metadata?.name), ['a']);
  });

  it('…but not under markPodNotReady, and not a specified-delete pod', () => {
    const pods = three();
    pods[0]!.metadata!.labels!['lifecycle.apps.kruise.io/state'] = 'PreparingDelete';
    assert.notEqual(planScale(input(pods, 3, { preDelete: { ...HOLD, markPodNotReady: true } })).kind, 'restore');
    pods[0]!.metadata!.labels!['apps.kruise.io/specified-delete'] = 'true';
    assert.notEqual(planScale(input(pods, 3)).kind, 'restore');
  });
});
