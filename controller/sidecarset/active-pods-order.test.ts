import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { compareActivePods } from './active-pods-order.js';

interface P { node?: string; phase?: string; ready?: string; restarts?: number; created?: string }
const pod = (p: P): Pod => ({
  metadata: { creationTimestamp: p.created as unknown as Date },
  spec: { containers: [], nodeName: p.node },
  status: {
    phase: p.phase,
    conditions: p.ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: p.ready as unknown as Date }] : [],
    containerStatuses: [{ name: 'c', image: '', imageID: '', ready: Boolean(p.ready), restartCount: p.restarts ?? 0 }],
  },
});

const run: P = { node: 'n', phase: 'Running', ready: '2026-01-01T00:00:10Z', created: '2026-01-01T00:00:00Z' };
const cases: { name: string; first: P; second: P }[] = [
  { name: 'unscheduled before scheduled', first: { ...run, node: '' }, second: run },
  { name: 'Pending before Running', first: { ...run, phase: 'Pending' }, second: run },
  { name: 'Unknown before Running', first: { ...run, phase: 'Unknown' }, second: run },
  { name: 'not ready before ready', first: { ...run, ready: undefined }, second: run },
  { name: 'ready for less time before ready for longer', first: { ...run, ready: '2026-01-01T00:01:00Z' }, second: run },
  { name: 'more restarts before fewer', first: { ...run, restarts: 3 }, second: run },
  { name: 'newer before older', first: { ...run, created: '2026-01-01T00:00:05Z' }, second: run },
  { name: 'no creation time before any', first: { ...run, created: undefined }, second: run },
];

for (const tc of cases) {
  test(tc.name, () => {
    assert.equal(compareActivePods(pod(tc.first), pod(tc.second)), -1);
    assert.equal(compareActivePods(pod(tc.second), pod(tc.first)), 1);
  });
}

test('identical pods compare equal', () => assert.equal(compareActivePods(pod(run), pod(run)), 0));
