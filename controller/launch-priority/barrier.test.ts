import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { LaunchPriorityCompletedAnnotation, nextStep, pendingPriorities, skipReason } from './barrier.js';

// Upstream's TestHandle pod: a p_3, b p_5, c p_0, d without barrier, e p_-1, f p_3.
const priorities: Record<string, number | undefined> = { a: 3, b: 5, c: 0, d: undefined, e: -1, f: 3 };
function pod(ready: string[], extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u1', ...extra },
    spec: {
      containers: Object.entries(priorities).map(([name, p]) => ({
        name,
        env: p === undefined ? [] : [{ name: 'KRUISE_CONTAINER_BARRIER', valueFrom: { configMapKeyRef: { name: 'p-barrier', key: `p_${p}` } } }],
      })),
    },
    status: { containerStatuses: Object.keys(priorities).map((name) => ({ name, ready: ready.includes(name), restartCount: 0, image: 'x', imageID: '' })) },
  };
}
const barrier = (...keys: number[]): V1ConfigMap => ({ data: Object.fromEntries(keys.map((k) => [`p_${k}`, 'true'])) });

const cases: { name: string; ready: string[]; barrier?: V1ConfigMap; want: ReturnType<typeof nextStep> }[] = [
  { name: 'no barrier yet: create it', ready: [], want: { kind: 'create-barrier' } },
  { name: 'nothing ready, empty barrier: release the highest priority, 5', ready: [], barrier: barrier(), want: { kind: 'release', key: 'p_5', thenComplete: false } },
  { name: 'a not ready, b and f ready, {5,3}: wait', ready: ['b', 'f'], barrier: barrier(5, 3), want: { kind: 'wait' } },
  { name: 'a, b, f ready, {5,3}: release 0', ready: ['a', 'b', 'f'], barrier: barrier(5, 3), want: { kind: 'release', key: 'p_0', thenComplete: false } },
  { name: 'a, b, c, f ready, {5,3,0}: release -1, the last one, and complete', ready: ['a', 'b', 'c', 'f'], barrier: barrier(5, 3, 0), want: { kind: 'release', key: 'p_-1', thenComplete: true } },
  { name: 'lowest pending already released: complete', ready: ['a', 'b', 'c', 'f'], barrier: barrier(5, 3, 0, -1), want: { kind: 'complete' } },
  { name: 'every barrier container ready: complete', ready: ['a', 'b', 'c', 'e', 'f'], barrier: barrier(5), want: { kind: 'complete' } },
];
for (const tc of cases) test(`nextStep: ${tc.name}`, () => assert.deepEqual(nextStep(pod(tc.ready), tc.barrier), tc.want));

test('pendingPriorities: ascending, de-duplicated, ready and barrier-less containers left out', () => {
  assert.deepEqual(pendingPriorities(pod([])), [-1, 0, 3, 5]);
  assert.deepEqual(pendingPriorities(pod(['a', 'b'])), [-1, 0, 3]);
});

test('skipReason: completed annotation, ContainersReady, nothing pending, highest already released; else null', () => {
  assert.equal(skipReason(pod([], { annotations: { [LaunchPriorityCompletedAnnotation]: 'true' } }), undefined), 'completed');
  const ready = pod([]);
  ready.status!.conditions = [{ type: 'ContainersReady', status: 'True' }];
  assert.equal(skipReason(ready, undefined), 'containers ready');
  assert.equal(skipReason(pod(['a', 'b', 'c', 'e', 'f']), undefined), 'no pending priorities');
  assert.equal(skipReason(pod([]), barrier(5)), 'highest pending priority already released');
  assert.equal(skipReason(pod([]), undefined), null);
  assert.equal(skipReason(pod(['b']), barrier(5)), null);
});
