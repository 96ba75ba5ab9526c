// The controller's status computation (spec/availability-guards.md §5.3): desiredAvailable and record time-outs.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/meta.js';
import { desiredAvailable, planStatus } from './status.js';

const NOW = Date.parse('2026-01-02T03:04:05Z');
const ready = (name: string): Pod => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

it('TestDesiredAvailableForPub: maxUnavailable 10% of 15 → 13; minAvailable int not capped; a bare number string is an error', () => {
  assert.equal(desiredAvailable({ spec: { maxUnavailable: '10%' } }, 15), 13);
  assert.equal(desiredAvailable({ spec: { minAvailable: 100 } }, 10), 100);
  assert.deepEqual(desiredAvailable({ spec: { maxUnavailable: '30' } }, 10), { error: 'invalid value for IntOrString: invalid type: string is not a percentage' });
});

it('a record due exactly now has expired (so a requeue timed for it never finds it still pending with no recheck)', () => {
  const pub = { metadata: { name: 'p', generation: 2 }, status: { unavailableAllowed: 0, currentAvailable: 0, desiredAvailable: 0, totalReplicas: 0,
    disruptedPods: { a: iso(NOW - 20_000), b: iso(NOW - 19_000) }, unavailablePods: { c: iso(NOW - 10_000), d: iso(NOW - 4_000) } } };
  const plan = planStatus({ pub, pods: ['a', 'b', 'c', 'd'].map(ready), expected: 4, desired: 1, nowMs: NOW });
  assert.deepEqual(plan.notDeleted, ['a']);
  assert.deepEqual(plan.status.disruptedPods, { b: iso(NOW - 19_000) });
  assert.deepEqual(plan.status.unavailablePods, { d: iso(NOW - 4_000) });
  assert.equal(plan.recheckMs, 1_000);
  assert.deepEqual([plan.status.currentAvailable, plan.status.unavailableAllowed, plan.status.observedGeneration], [2, 1, 2]);
});
