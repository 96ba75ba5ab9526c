import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1PodCondition } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { addNotReadyKey, dumpHolders, holdsNotReady, removeNotReadyKey } from './pod-readiness.js';

const NOW = '2026-03-01T10:00:05Z';
const EARLIER = '2026-03-01T09:00:00Z';
const me = { userAgent: 'ContainerRecreateRequest', key: 'default/crr-1' };
const other = { userAgent: 'ContainerRecreateRequest', key: 'default/crr-0' };

function pod(conditions: Partial<V1PodCondition>[], gate = true): Pod {
  return {
    metadata: { name: 'web-0', namespace: 'default' },
    spec: { containers: [], ...(gate ? { readinessGates: [{ conditionType: 'KruisePodReady' }] } : {}) },
    status: { conditions: conditions as V1PodCondition[] },
  };
}

const ready = (status = 'True') => ({ type: 'Ready', status, lastTransitionTime: EARLIER as never });
const containersReady = { type: 'ContainersReady', status: 'True', lastTransitionTime: EARLIER as never };

test('adding to a True condition sets it False with the holder, and Ready goes False as kubelet computes it', () => {
  const got = addNotReadyKey(pod([containersReady, ready(), { type: 'KruisePodReady', status: 'True', message: '[]' }]), me, NOW);
  assert.deepEqual(got, [
    containersReady,
    { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'the status of pod readiness gate "KruisePodReady" is not "True", but False', lastTransitionTime: NOW },
    { type: 'KruisePodReady', status: 'False', message: '[{"userAgent":"ContainerRecreateRequest","key":"default/crr-1"}]', lastTransitionTime: NOW },
  ]);
});

test('a missing condition is appended with an empty status (upstream quirk), which also makes Ready False', () => {
  const got = addNotReadyKey(pod([containersReady, ready()]), me, NOW)!;
  assert.deepEqual(got[2], { type: 'KruisePodReady', message: '[{"userAgent":"ContainerRecreateRequest","key":"default/crr-1"}]', lastTransitionTime: NOW });
  assert.equal(got[1]?.status, 'False');
  assert.equal(got[1]?.message, 'the status of pod readiness gate "KruisePodReady" is not "True", but ');
});

test('holders stay sorted and are never duplicated; a pod without the gate is untouched', () => {
  const held = pod([{ type: 'KruisePodReady', status: 'False', message: dumpHolders([me]) }]);
  const both = addNotReadyKey(held, other, NOW)!;
  assert.equal(both[0]?.message, '[{"userAgent":"ContainerRecreateRequest","key":"default/crr-0"},{"userAgent":"ContainerRecreateRequest","key":"default/crr-1"}]');
  assert.equal(addNotReadyKey(held, me, NOW), null);
  assert.equal(addNotReadyKey(pod([ready()], false), me, NOW), null);
  assert.equal(holdsNotReady(held, me), true);
  assert.equal(holdsNotReady(held, other), false);
});

test('removing the last holder sets the condition True ("[]") and Ready True again', () => {
  const got = removeNotReadyKey(pod([containersReady, ready('False'), { type: 'KruisePodReady', status: 'False', message: dumpHolders([me]) }]), me, NOW);
  assert.deepEqual(got, [
    containersReady,
    { type: 'Ready', status: 'True', lastTransitionTime: NOW },
    { type: 'KruisePodReady', status: 'True', message: '[]', lastTransitionTime: NOW },
  ]);
});

test('removing one of two holders keeps the condition False', () => {
  const got = removeNotReadyKey(pod([{ type: 'KruisePodReady', status: 'False', message: dumpHolders([me, other]) }]), me, NOW);
  assert.deepEqual(got, [{ type: 'KruisePodReady', status: 'False', message: dumpHolders([other]), lastTransitionTime: NOW }]);
});

test('removing a holder that is not there changes nothing', () => {
  assert.equal(removeNotReadyKey(pod([{ type: 'KruisePodReady', status: 'True', message: '[]' }]), me, NOW), null);
  assert.equal(removeNotReadyKey(pod([]), me, NOW), null);
});

test('Ready is left alone while the containers are not ready', () => {
  const got = addNotReadyKey(pod([{ type: 'ContainersReady', status: 'False' }, ready('False')]), me, NOW)!;
  assert.deepEqual(got[1], ready('False'));
});
