import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { WorkloadSpread, WorkloadSpreadSubset } from '../../shared/api/workload-spread.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { adoptionPatch, subsetScore } from './adoption.js';
import { workloadSpreadController } from './controller.js';

const node = (name: string, taint = true): V1Node => ({
  metadata: { name, labels: { 'name-is': name } },
  spec: taint ? { taints: [{ key: 'node-taint', value: name, effect: 'NoSchedule' }] } : {},
});
const subset = (o: Partial<WorkloadSpreadSubset> = {}): WorkloadSpreadSubset => ({
  name: 'subset-a',
  requiredNodeSelectorTerm: { matchExpressions: [{ key: 'name-is', operator: 'In', values: ['node-a'] }] },
  preferredNodeSelectorTerms: [{ weight: 100, preference: { matchExpressions: [{ key: 'name-is', operator: 'In', values: ['node-a'] }] } }],
  tolerations: [{ key: 'node-taint', operator: 'Equal', value: 'node-a', effect: 'NoSchedule' }],
  patch: { metadata: { labels: { subset: 'subset-a' } } },
  ...o,
});
const pod = (labels: Record<string, string> = { subset: 'subset-a' }): Pod => ({ metadata: { name: 'p', labels }, spec: { containers: [], nodeName: 'node-a' } });

describe('adoption score (TestMatchSubset vectors, budget 0, preferred weight 100)', () => {
  it('all match → 10010', () => assert.equal(subsetScore(pod(), node('node-a'), subset(), 0), 10010));
  it('the pod\'s label differs from the patch → 10000', () => assert.equal(subsetScore(pod({ subset: 'other' }), node('node-a'), subset(), 0), 10000));
  it('preferred key mismatch → 10', () => assert.equal(subsetScore(pod(), node('node-a'), subset({ preferredNodeSelectorTerms: [{ weight: 100, preference: { matchExpressions: [{ key: 'x', operator: 'In', values: ['y'] }] } }] }), 0), 10));
  it('required key mismatch → −1', () => assert.equal(subsetScore(pod(), node('node-a'), subset({ requiredNodeSelectorTerm: { matchExpressions: [{ key: 'x', operator: 'In', values: ['node-a'] }] } }), 0), -1));
  it('toleration mismatch → −1', () => assert.equal(subsetScore(pod(), node('node-a'), subset({ tolerations: [] }), 0), -1));
  it('a budget left adds 1', () => assert.equal(subsetScore(pod(), node('node-a'), subset(), 1), 10011));
  it('the adoption patch carries the subset patch\'s labels, unless the WorkloadSpread says to ignore them', () => {
    const ws: WorkloadSpread = { metadata: { name: 'ws' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, subsets: [subset()] } };
    assert.deepEqual(adoptionPatch(ws, 'subset-a'), { metadata: { labels: { subset: 'subset-a' }, annotations: { 'apps.kruise.io/matched-workloadspread': '{"name":"ws","subset":"subset-a"}' } } });
    ws.metadata!.annotations = { 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata': 'TRUE' };
    assert.deepEqual(adoptionPatch(ws, 'subset-a'), { metadata: { annotations: { 'apps.kruise.io/matched-workloadspread': '{"name":"ws","subset":"subset-a"}' } } });
  });
});

describe('existing pods adopted by the controller (TestManagerExistingPods shape)', () => {
  it('pods on node-a go to subset-a up to its budget and are patched; node-b pods to subset-b; a pod on an unknown node to the fake subset', async () => {
    const cluster = new FakeCluster();
    for (const n of ['node-a', 'node-b']) cluster.seed(resources.nodes, node(n, n === 'node-a') as never);
    const cs = cluster.seed(resources.cloneSets, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'cs', namespace: 'default' } as { name: string; namespace: string; uid?: string }, spec: { replicas: 6 } });
    const owner = [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: cs.metadata!.uid!, controller: true }];
    const onNode = (name: string, nodeName: string, annotations?: Record<string, string>) => cluster.seed(resources.pods, { metadata: { name, namespace: 'default', ownerReferences: owner, ...(annotations ? { annotations } : {}) }, spec: { containers: [], nodeName }, status: { phase: 'Running' } } as never);
    onNode('a-0', 'node-a'); onNode('a-1', 'node-a', { 'apps.kruise.io/matched-workloadspread': '{"name":"other-ws","subset":"x"}' }); onNode('a-2', 'node-a');
    onNode('b-0', 'node-b'); onNode('c-0', 'node-c');
    cluster.seed(resources.workloadSpreads, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'ws', namespace: 'default' }, spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' },
      subsets: [subset({ maxReplicas: 2, preferredNodeSelectorTerms: [] }), { name: 'subset-b', requiredNodeSelectorTerm: { matchExpressions: [{ key: 'name-is', operator: 'In', values: ['node-b'] }] } }],
    } } as never);
    const f = fakeDeps(cluster);
    await workloadSpreadController.setup(f.deps, new RecordingQueue())('default/ws', f.ctx);
    const subsetOf = (name: string) => JSON.parse(cluster.get<Pod & { metadata: { name: string } }>(resources.pods, name, 'default')?.metadata?.annotations?.['apps.kruise.io/matched-workloadspread'] ?? '{}').subset;
    assert.deepEqual(['a-0', 'a-1', 'a-2', 'b-0', 'c-0'].map(subsetOf), ['subset-a', 'subset-a', 'subset-a', 'subset-b', undefined]);
    assert.equal(cluster.get<Pod & { metadata: { name: string } }>(resources.pods, 'a-0', 'default')?.metadata?.labels?.subset, 'subset-a');
    const st = cluster.get<WorkloadSpread & { metadata: { name: string } }>(resources.workloadSpreads, 'ws', 'default')!.status!.subsetStatuses!;
    assert.deepEqual(st.map((s) => [s.name, s.replicas, s.missingReplicas]), [['subset-a', 3, 0], ['subset-b', 1, -1]]);
  });
});
