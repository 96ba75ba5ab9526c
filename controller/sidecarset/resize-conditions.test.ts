import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarSetCondition } from '../../shared/api/sidecarset.js';
import { changedConditions, conditionsDiffer, resizeConditions, type ConditionInputs } from './resize-conditions.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-01T01:00:00Z');
const none: ConditionInputs = { newPodsOnly: [], infeasible: [], refused: [] };

test('nothing to say: no condition; other condition types are kept', () => {
  const other: SidecarSetCondition = { type: 'Other', status: 'True', reason: 'R', message: 'm', lastTransitionTime: 'x' };
  assert.deepEqual(resizeConditions(none, [other], T0), [other]);
});

test('the cluster refusal wins over Infeasible pods, which win over API refusals; pods named up to three', () => {
  const pods = ['a', 'b', 'c', 'd'].map((p) => ({ pod: `ns/${p}`, message: `no room for ${p}` }));
  const [unsupported] = resizeConditions({ ...none, unsupported: 'no pods/resize', infeasible: pods }, undefined, T0);
  assert.equal(unsupported!.reason, 'ResizeUnsupported');
  const [infeasible] = resizeConditions({ ...none, infeasible: pods, refused: pods }, undefined, T0);
  assert.equal(infeasible!.reason, 'ResizeInfeasible');
  assert.equal(infeasible!.message, '4 pod(s) cannot get the new sidecar resources on their node, the rollout waits for them: no room for a (ns/a, ns/b, ns/c and 1 more)');
  assert.equal(resizeConditions({ ...none, refused: pods }, undefined, T0)[0]!.reason, 'ResizeRefused');
});

test('NewPodsOnly groups the pods by reason; lastTransitionTime kept while the status stays; events only on a new reason', () => {
  const inputs: ConditionInputs = { ...none, newPodsOnly: [{ pod: 'ns/a', reason: 'env changed' }, { pod: 'ns/b', reason: 'off' }, { pod: 'ns/c', reason: 'env changed' }] };
  const first = resizeConditions(inputs, undefined, T0);
  assert.deepEqual(first, [{ type: 'InPlaceUpdate', status: 'False', reason: 'NewPodsOnly', lastTransitionTime: '2026-01-01T00:00:00Z',
    message: '3 pod(s) keep their sidecars until recreated: env changed (ns/a, ns/c); off (ns/b)' }]);
  const fewer = resizeConditions({ ...none, newPodsOnly: inputs.newPodsOnly.slice(0, 1) }, first, T1);
  assert.equal(fewer[0]!.lastTransitionTime, '2026-01-01T00:00:00Z');
  assert.equal(conditionsDiffer(first, fewer), true, 'the message changed: written');
  assert.deepEqual(changedConditions(first, fewer), [], 'but no new event');
  assert.equal(changedConditions(undefined, first).length, 1);
  assert.equal(conditionsDiffer(first, resizeConditions(inputs, first, T1)), false);
});

test('a message stays bounded whatever the number of pods: three reasons named, each clipped', () => {
  const newPodsOnly = Array.from({ length: 1000 }, (_, i) => ({ pod: `ns/p${i}`, reason: `Invalid: Pod "p${i}" is invalid: ${'x'.repeat(500)}` }));
  const [c] = resizeConditions({ ...none, newPodsOnly }, undefined, T0);
  assert.ok(c!.message.length < 1200, `${c!.message.length} characters`);
  assert.match(c!.message, /^1000 pod\(s\) keep their sidecars until recreated: Invalid: Pod "p0" is invalid: x+… \(ns\/p0\); .*; 997 more reason\(s\)$/);
});
