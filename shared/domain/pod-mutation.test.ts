import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeCtx, names, pod1, sidecarSet1 } from './inject/fixtures.js';
import { mutatePodOnCreate } from './pod-mutation.js';
import { deepFreeze } from '../testing/freeze.js';

const kruiseOwned = () => {
  const p = pod1();
  p.metadata!.ownerReferences = [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'u', controller: true }];
  return p;
};

test('a kruise-owned pod gets the KruisePodReady readiness gate once', () => {
  const out = mutatePodOnCreate(kruiseOwned(), makeCtx([]));
  assert.deepEqual(out.spec!.readinessGates, [{ conditionType: 'KruisePodReady' }]);
  assert.deepEqual(mutatePodOnCreate(out, makeCtx([])).spec!.readinessGates, [{ conditionType: 'KruisePodReady' }]);
});

test('a pod owned by apps/v1 or by a non-controller kruise owner gets no readiness gate', () => {
  const p = pod1();
  p.metadata!.ownerReferences = [
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true },
    { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'v' },
  ];
  assert.equal(mutatePodOnCreate(p, makeCtx([])).spec!.readinessGates, undefined);
});

test('launch priority runs after injection, so Before sidecars take p_0', () => {
  const p = pod1();
  p.metadata!.annotations = { 'apps.kruise.io/container-launch-priority': 'Ordered' };
  const out = mutatePodOnCreate(p, makeCtx([sidecarSet1()]));
  assert.deepEqual(names(out.spec!.containers), ['dns-f', 'nginx', 'log-agent']);
  const keys = out.spec!.containers.map((c) => c.env!.at(-1)!.valueFrom!.configMapKeyRef!.key);
  assert.deepEqual(keys, ['p_0', 'p_-1', 'p_-2']);
});

test('UPDATE changes nothing at all', () => {
  const p = kruiseOwned();
  assert.deepEqual(mutatePodOnCreate(p, makeCtx([sidecarSet1()], { operation: 'UPDATE' })), p);
});

test('the whole pipeline never writes into its input (the webhook diffs against it without a copy)', () => {
  const ordered = kruiseOwned();
  ordered.metadata!.annotations = { 'apps.kruise.io/container-launch-priority': 'Ordered' };
  const byEnv = pod1();
  byEnv.spec!.containers[0]!.env = [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '5' }];
  for (const p of [ordered, byEnv]) {
    const before = JSON.stringify(p);
    // Frozen input: a write anywhere inside it throws.
    const out = mutatePodOnCreate(deepFreeze(p), makeCtx(deepFreeze([sidecarSet1()])));
    assert.notEqual(JSON.stringify(out), before, 'the pod was mutated');
    assert.ok(out.spec!.containers.every((c) => c.env?.some((e) => e.name === 'KRUISE_CONTAINER_BARRIER')));
  }
});
