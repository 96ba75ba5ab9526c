import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import type { Workload } from '../../shared/domain/workloadspread/replicas.js';
import type { AdmissionRequest } from '../admission/review.js';
import { workloadSpreadPodSteps } from './workload-spread-pod.js';

const NS = 'default';
const deploymentPod = (): Pod => ({
  metadata: { generateName: 'web-6d4cf56db6-', namespace: NS, labels: { 'pod-template-hash': '6d4cf56db6' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-6d4cf56db6', uid: 'rs-uid', controller: true }] },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});
const spread = (missingA: number, rv = '10'): WorkloadSpread => ({
  metadata: { name: 'ws', namespace: NS, uid: 'ws-uid', resourceVersion: rv },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets: [{ name: 'a', maxReplicas: 2, tolerations: [{ key: 'zone', operator: 'Equal', value: 'a', effect: 'NoSchedule' }] }, { name: 'b' }] },
  status: { versionedSubsetStatuses: { '6d4cf56db6': [{ name: 'a', replicas: 0, missingReplicas: missingA }, { name: 'b', replicas: 0, missingReplicas: -1 }] } },
});
const workloads: Record<string, Workload> = {
  'ReplicaSet/web-6d4cf56db6': { metadata: { name: 'web-6d4cf56db6', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true }] } },
  'Deployment/web': { metadata: { name: 'web', uid: 'd-uid' }, spec: { replicas: 4 } },
};

function harness(o: { cached: WorkloadSpread; fresh?: WorkloadSpread; conflicts?: number; missing?: string[] }) {
  const writes: WorkloadSpread[] = [];
  let conflicts = o.conflicts ?? 0;
  const steps = workloadSpreadPodSteps({
    enabled: true, now: () => new Date('2026-12-06T05:00:00Z'), random: () => 0, newUID: () => 'uid-1', sleep: async () => {},
    caches: {
      workloadSpreadsIn: (ns) => (ns === NS ? [o.cached] : []),
      fetchPod: async () => undefined,
      workloadSpreadApi: {
        fetchWorkload: async (_g, kind, _ns, name) => (o.missing?.includes(`${kind}/${name}`) ? undefined : workloads[`${kind}/${name}`]),
        fetchWorkloadSpread: async () => structuredClone(o.fresh ?? o.cached),
        updateWorkloadSpreadStatus: async (ws) => {
          if (conflicts-- > 0) return 'conflict';
          writes.push(ws);
          return { ...ws, metadata: { ...ws.metadata, resourceVersion: String(Number(ws.metadata?.resourceVersion) + 1) } };
        },
      },
    },
  });
  return { steps, writes };
}
const create = (pod: Pod): AdmissionRequest => ({ uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, operation: 'CREATE', namespace: NS, object: pod } as AdmissionRequest);

describe('WorkloadSpread on pod create (webhook step)', () => {
  it('a Deployment pod (ReplicaSet → Deployment) is placed in subset a and recorded under a generated uid', async () => {
    const h = harness({ cached: spread(2) });
    const out = await h.steps.onCreate(deploymentPod(), create(deploymentPod()));
    assert.equal(out.metadata?.annotations?.['apps.kruise.io/matched-workloadspread'], '{"name":"ws","subset":"a","uid":"uid-1"}');
    assert.deepEqual(out.spec?.tolerations?.map((t) => t.value), ['a']);
    assert.equal(h.writes.length, 1);
    assert.deepEqual(h.writes[0]!.status?.versionedSubsetStatuses?.['6d4cf56db6']?.[0], { name: 'a', replicas: 0, missingReplicas: 1, creatingPods: { 'uid-1': '2026-12-06T05:00:00Z' } });
  });
  it('the second pod follows the process\'s own last write, not the older cache: a fills, the third goes to b', async () => {
    const h = harness({ cached: spread(2) });
    await h.steps.onCreate(deploymentPod(), create(deploymentPod()));
    const second = await h.steps.onCreate(deploymentPod(), create(deploymentPod()));
    const third = await h.steps.onCreate(deploymentPod(), create(deploymentPod()));
    assert.match(second.metadata!.annotations!['apps.kruise.io/matched-workloadspread']!, /"subset":"a"/);
    assert.match(third.metadata!.annotations!['apps.kruise.io/matched-workloadspread']!, /"subset":"b"/);
    assert.equal(h.writes.length, 2, 'b is unlimited: no write');
  });
  it('a Conflict re-reads from the apiserver and decides again there', async () => {
    const h = harness({ cached: spread(2), fresh: spread(0, '11'), conflicts: 1 });
    const out = await h.steps.onCreate(deploymentPod(), create(deploymentPod()));
    assert.match(out.metadata!.annotations!['apps.kruise.io/matched-workloadspread']!, /"subset":"b"/);
    assert.equal(h.writes.length, 0);
  });
  it('four Conflicts fail the create with 500', async () => {
    const h = harness({ cached: spread(2), conflicts: 4 });
    await assert.rejects(async () => h.steps.onCreate(deploymentPod(), create(deploymentPod())), (e: AdmissionDeniedError) => e.code === 500 && /the object has been modified/.test(e.message));
  });
  it('an owner missing up the chain fails the create with its NotFound text (§18 #9)', async () => {
    const h = harness({ cached: spread(2), missing: ['ReplicaSet/web-6d4cf56db6'] });
    await assert.rejects(async () => h.steps.onCreate(deploymentPod(), create(deploymentPod())), (e: AdmissionDeniedError) => e.code === 500 && e.message === 'ReplicaSet.apps "web-6d4cf56db6" not found');
  });
  it('a dry run, a pod without controller and a namespace without WorkloadSpreads are left alone, synchronously', () => {
    const h = harness({ cached: spread(2) });
    const pod = deploymentPod();
    assert.equal(h.steps.onCreate(pod, { ...create(pod), options: { dryRun: ['All'] } }), pod);
    const bare: Pod = { metadata: { name: 'x', namespace: NS }, spec: { containers: [] } };
    assert.equal(h.steps.onCreate(bare, create(bare)), bare);
    assert.equal(h.steps.onCreate(pod, { ...create(pod), namespace: 'elsewhere' }), pod);
  });
});

describe('WorkloadSpread on pod delete and eviction', () => {
  const placed = (): Pod => ({ ...deploymentPod(), metadata: { ...deploymentPod().metadata, name: 'web-6d4cf56db6-abcde', annotations: { 'apps.kruise.io/matched-workloadspread': '{"Name":"ws","Subset":"a"}' } } });
  it('a DELETE records the pod in a\'s deletingPods and frees a place', async () => {
    const h = harness({ cached: spread(0) });
    await h.steps.onDelete({ uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, operation: 'DELETE', namespace: NS, name: 'web-6d4cf56db6-abcde', oldObject: placed() } as AdmissionRequest);
    assert.deepEqual(h.writes[0]!.status?.versionedSubsetStatuses?.['6d4cf56db6']?.[0], { name: 'a', replicas: 0, missingReplicas: 1, deletingPods: { 'web-6d4cf56db6-abcde': '2026-12-06T05:00:00Z' } });
  });
  it('a dry-run DELETE and a pod of an unknown subset write nothing', async () => {
    const h = harness({ cached: spread(0) });
    await h.steps.onDelete({ uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, operation: 'DELETE', namespace: NS, options: { dryRun: ['All'] }, oldObject: placed() } as AdmissionRequest);
    const other = placed();
    other.metadata!.annotations!['apps.kruise.io/matched-workloadspread'] = '{"name":"ws","subset":"zzz"}';
    await h.steps.onDelete({ uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, operation: 'DELETE', namespace: NS, oldObject: other } as AdmissionRequest);
    assert.equal(h.writes.length, 0);
  });
  it('an eviction of a pod that cannot be read answers 400', async () => {
    const h = harness({ cached: spread(0) });
    await assert.rejects(async () => h.steps.onDelete({ uid: 'u', kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, operation: 'CREATE', subResource: 'eviction', namespace: NS, name: 'gone', object: {} } as AdmissionRequest),
      (e: AdmissionDeniedError) => e.code === 400 && e.message === 'pods "gone" not found');
  });
});
