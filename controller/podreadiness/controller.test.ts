import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { needsInitialCondition, podReadinessController } from './controller.js';

const pod = (name: string, gate: boolean, conditions: { type: string; status: string }[] = []): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c' }], ...(gate ? { readinessGates: [{ conditionType: 'KruisePodReady' }] } : {}) },
  status: { conditions },
});

describe('podreadiness-controller', () => {
  it('only pods with the gate and no condition need it', () => {
    assert.equal(needsInitialCondition(pod('a', true)), true);
    assert.equal(needsInitialCondition(pod('b', false)), false);
    assert.equal(needsInitialCondition(pod('c', true, [{ type: 'KruisePodReady', status: 'False' }])), false, 'a holder set it False: left alone');
  });

  it('sets KruisePodReady True on gated pods, and only on them', async () => {
    const cluster = new FakeCluster();
    cluster.seed(resources.pods, pod('gated', true, [{ type: 'Ready', status: 'False' }]));
    cluster.seed(resources.pods, pod('plain', false));
    const queue = new RecordingQueue();
    const f = fakeDeps(cluster);
    const reconcile = podReadinessController.setup(f.deps, queue);
    queue.add('default/gated');
    queue.add('default/plain');
    await queue.drain((k) => reconcile(k, f.ctx));
    const conds = cluster.get<Pod>(resources.pods, 'gated', 'default')!.status!.conditions!;
    assert.equal(conds.find((c) => c.type === 'KruisePodReady')?.status, 'True');
    assert.equal(conds.find((c) => c.type === 'Ready')?.status, 'False', "Ready is kubelet's to recompute");
    assert.equal(cluster.get<Pod>(resources.pods, 'plain', 'default')!.status!.conditions!.length, 0);
    assert.deepEqual(cluster.calls.filter((c) => c.method === 'PATCH').map((c) => `${c.name}/${c.subresource}`), ['gated/status']);
  });
});
