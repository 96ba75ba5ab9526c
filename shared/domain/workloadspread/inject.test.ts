import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkloadSpread } from '../../api/workload-spread.js';
import { parseMatchedAnnotation } from './annotation.js';
import { cloneSetPod } from './fixtures.js';
import { injectSubset } from './inject.js';
import { podVersion } from './pod-version.js';
import { replicasAtPath, sumReplicasPaths } from './replicas.js';
import { strategicMergePod } from './strategic-merge.js';

const subsetA: WorkloadSpread = {
  metadata: { name: 'test-ws', namespace: 'default' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cloneset-test' },
    subsets: [{
      name: 'subset-a',
      requiredNodeSelectorTerm: {
        matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['ack'] }, { key: 'sigma.ali/resource-pool', operator: 'In', values: ['lark'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['i-8vbhlh6rzc3m4f2q7d5f', 'i-8vbhlh6rzc3m4f2q7d5g'] }],
      },
      preferredNodeSelectorTerms: [{ weight: 5, preference: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['cn-zhangjiakou-a'] }] } }],
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }],
      patch: { metadata: { labels: { subset: 'subset-a' }, annotations: { subset: 'subset-a' } } },
    }],
  },
};

describe('what a subset writes into the pod (spec §12.3)', () => {
  it('subset-a on a bare pod: label, annotations, toleration, the single required term, the preferred term', () => {
    const pod = cloneSetPod();
    const out = injectSubset(subsetA, pod, 'subset-a');
    assert.deepEqual(out.metadata?.labels, { subset: 'subset-a' });
    assert.deepEqual(out.metadata?.annotations, { subset: 'subset-a', 'apps.kruise.io/matched-workloadspread': '{"name":"test-ws","subset":"subset-a"}' });
    assert.deepEqual(out.spec?.tolerations, subsetA.spec!.subsets[0]!.tolerations);
    assert.deepEqual(out.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms, [subsetA.spec!.subsets[0]!.requiredNodeSelectorTerm]);
    assert.deepEqual(out.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution, subsetA.spec!.subsets[0]!.preferredNodeSelectorTerms);
    assert.equal(pod.metadata?.labels, undefined, 'the argument is untouched');
  });
  it('a forged pod with odd shapes (tolerations a number, affinity a string) is placed, not crashed on', () => {
    const pod = cloneSetPod() as any;
    pod.spec.tolerations = 3;
    pod.spec.affinity = 'x';
    const out = injectSubset(subsetA, pod, 'subset-a');
    assert.equal(out.spec?.tolerations?.length, 1);
    assert.equal(out.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms.length, 1);
  });
  it('existing required terms are each ANDed with the subset term', () => {
    const pod = cloneSetPod();
    pod.spec!.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { matchExpressions: [{ key: 'b', operator: 'Exists' }] }] } } };
    const terms = injectSubset(subsetA, pod, 'subset-a').spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms;
    assert.deepEqual(terms.map((t) => t.matchExpressions!.map((e) => e.key)), [['a', 'topology.kubernetes.io/zone', 'sigma.ali/resource-pool'], ['b', 'topology.kubernetes.io/zone', 'sigma.ali/resource-pool']]);
    assert.equal(terms[0]!.matchFields!.length, 1);
  });
  it('a priorityClassName patch clears the priority and leaves affinity {nodeAffinity: {}}', () => {
    const ws: WorkloadSpread = { ...subsetA, spec: { ...subsetA.spec!, subsets: [{ name: 'subset-a', patch: { spec: { priorityClassName: 'low' } } }] } };
    const pod = cloneSetPod();
    pod.spec!.priority = 10000;
    pod.spec!.priorityClassName = 'high';
    const out = injectSubset(ws, pod, 'subset-a');
    assert.equal(out.spec?.priorityClassName, 'low');
    assert.equal(out.spec?.priority, undefined);
    assert.deepEqual(out.spec?.affinity, { nodeAffinity: {} });
  });
});

describe('strategic merge of a subset patch', () => {
  it('containers merge by name, env by name; other lists replace; null deletes', () => {
    const doc = { metadata: { labels: { a: '1', b: '2' } }, spec: { containers: [{ name: 'main', image: 'x', env: [{ name: 'A', value: '1' }] }], tolerations: [{ key: 'k' }] } };
    const out = strategicMergePod(doc, { metadata: { labels: { b: null, c: '3' } }, spec: { containers: [{ name: 'main', env: [{ name: 'B', value: '2' }] }, { name: 'side', image: 'y' }], tolerations: [{ key: 'z' }] } });
    assert.deepEqual(out, { metadata: { labels: { a: '1', c: '3' } }, spec: { containers: [{ name: 'main', image: 'x', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }, { name: 'side', image: 'y' }], tolerations: [{ key: 'z' }] } });
    assert.deepEqual(doc.metadata.labels, { a: '1', b: '2' }, 'the document is untouched');
  });
  it('$patch: delete removes the matching element; a merge-keyed element without its key is an error', () => {
    assert.deepEqual(strategicMergePod({ spec: { volumes: [{ name: 'a' }, { name: 'b' }] } }, { spec: { volumes: [{ name: 'a', $patch: 'delete' }] } }), { spec: { volumes: [{ name: 'b' }] } });
    assert.throws(() => strategicMergePod({ spec: { containers: [] } }, { spec: { containers: [{ image: 'x' }] } }), /does not contain declared merge key: name/);
  });
});

describe('annotation, versions, replicas paths', () => {
  it('the annotation reads case-insensitively as Go does; null, junk and wrong types read as nothing', () => {
    assert.deepEqual(parseMatchedAnnotation('{"Name":"test-ws","Subset":"subset-b"}'), { name: 'test-ws', subset: 'subset-b' });
    assert.equal(parseMatchedAnnotation('null'), undefined);
    assert.equal(parseMatchedAnnotation('{'), undefined);
    assert.equal(parseMatchedAnnotation('{"name":1}'), undefined);
  });
  const dp = (labels: Record<string, string>) => ({ metadata: { labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true }] } });
  for (const [labels, want] of [
    [{ 'controller-revision-hash': '5474f59575' }, '5474f59575'],
    [{ 'controller-revision-hash': 'workload-xyz-5474f59575' }, '5474f59575'],
    [{ 'pod-template-hash': '5474f59575' }, '5474f59575'],
    [{ 'pod-template-hash': 'aaa', 'controller-revision-hash': 'bbb' }, 'aaa'],
  ] as const) it(`pod version of a Deployment pod with ${JSON.stringify(labels)} is ${want}`, () => assert.equal(podVersion(dp(labels)), want));
  it('a CloneSet pod is versionIgnored', () => assert.equal(podVersion(cloneSetPod('p', { labels: { 'pod-template-hash': 'x' } })), 'versionIgnored'));
  const obj = { spec: { replicas: 5, replicaSlice: [1, 2], stringField: '5' } };
  it('replicas paths (TestGetReplicasFromObject)', () => {
    assert.equal(replicasAtPath(obj, ''), 0);
    assert.throws(() => replicasAtPath(obj, 'spec.not.exist'), /path "not" not exists/);
    assert.throws(() => replicasAtPath(obj, 'spec.stringField'), /object type error/);
    assert.equal(replicasAtPath(obj, 'spec.replicas'), 5);
    assert.equal(replicasAtPath(obj, 'spec.replicaSlice.1'), 2);
    assert.throws(() => replicasAtPath(obj, 'spec.replicaSlice.-1'), /index -1 out of range/);
    assert.equal(sumReplicasPaths(obj, ['spec.replicas', 'spec.replicaSlice.0', 'spec.replicaSlice.1']), 8);
  });
});
