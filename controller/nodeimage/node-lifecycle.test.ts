import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { NodeImage } from '../../shared/api/node-image.js';
import { nodeChangeMatters, nodeImageCreation } from './node-lifecycle.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const node = (o: { ready?: 'True' | 'False'; since?: number; labels?: Record<string, string>; deleting?: boolean } = {}): V1Node => ({
  metadata: { name: 'n1', labels: o.labels ?? { zone: 'a' }, ...(o.deleting ? { deletionTimestamp: new Date(T0) } : {}) },
  status: { conditions: o.ready ? [{ type: 'Ready', status: o.ready, lastTransitionTime: new Date(o.since ?? T0).toISOString() as unknown as Date }] : [] },
});
const ni = (labels: Record<string, string> = { zone: 'a' }): NodeImage => ({ metadata: { name: 'n1', labels }, spec: {} });

test('creation waits until the node has been Ready for the delay', () => {
  const cases = [
    { name: 'ready long enough', n: node({ ready: 'True', since: T0 - 31_000 }), want: { kind: 'create' } },
    { name: 'ready exactly the delay ago', n: node({ ready: 'True', since: T0 - 30_000 }), want: { kind: 'create' } },
    { name: 'ready 10 s ago waits the remaining 20 s', n: node({ ready: 'True', since: T0 - 10_000 }), want: { kind: 'wait', ms: 20_000 } },
    { name: 'not ready', n: node({ ready: 'False' }), want: { kind: 'skip', reason: 'node not Ready' } },
    { name: 'no conditions yet', n: node(), want: { kind: 'skip', reason: 'node not Ready' } },
    { name: 'virtual kubelet', n: node({ ready: 'True', since: 0, labels: { type: 'virtual-kubelet' } }), want: { kind: 'skip', reason: 'virtual-kubelet node' } },
  ];
  for (const tc of cases) assert.deepEqual(nodeImageCreation(tc.n, T0, 30_000), tc.want, tc.name);
  assert.deepEqual(nodeImageCreation(node({ ready: 'True', since: T0 }), T0, 0), { kind: 'create' }, 'delay 0 creates at once');
});

test('which node changes need a reconcile', () => {
  const cases: { name: string; n: V1Node | undefined; ni: NodeImage | undefined; want: boolean }[] = [
    { name: 'deleted node with a NodeImage', n: undefined, ni: ni(), want: true },
    { name: 'deleted node without one', n: undefined, ni: undefined, want: false },
    { name: 'terminating node with a NodeImage', n: node({ ready: 'True', deleting: true }), ni: ni(), want: true },
    { name: 'ready node without a NodeImage', n: node({ ready: 'True' }), ni: undefined, want: true },
    { name: 'unready node without one', n: node({ ready: 'False' }), ni: undefined, want: false },
    { name: 'virtual kubelet without one', n: node({ ready: 'True', labels: { type: 'virtual-kubelet' } }), ni: undefined, want: false },
    { name: 'heartbeat only (labels equal)', n: node({ ready: 'True' }), ni: ni(), want: false },
    { name: 'label added on the node', n: node({ ready: 'True', labels: { zone: 'a', gpu: 'yes' } }), ni: ni(), want: true },
    { name: 'label changed on the node', n: node({ ready: 'True', labels: { zone: 'b' } }), ni: ni(), want: true },
    { name: 'label added by hand on the NodeImage', n: node({ ready: 'True' }), ni: ni({ zone: 'a', manual: 'x' }), want: true },
  ];
  for (const tc of cases) assert.equal(nodeChangeMatters(tc.n, tc.ni), tc.want, tc.name);
});
