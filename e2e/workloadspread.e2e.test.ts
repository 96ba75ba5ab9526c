// WorkloadSpread on the real apiserver (spec/availability-guards.md Part C): the validating webhook refuses an invalid
// WorkloadSpread with upstream's message; two subsets told apart by their patch labels spread a CloneSet's and a
// Deployment's new pods by maxReplicas (the pod webhook records each placement, the controller counts and ranks
// them, and a scale-in removes the lower-cost subset's pods first); pods that predate the WorkloadSpread are adopted
// by their node; a WorkloadSpread written as OpenKruise v1.9.0 writes it (status included) is taken over.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../shared/api/meta.js';
import type { WorkloadSpread } from '../shared/api/workload-spread.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const NS = 'e2e-workloadspread';
const COST = 'controller.kubernetes.io/pod-deletion-cost';
const kwok = { nodeSelector: { type: 'kwok' } };

const spreadOf = (name: string) => getJson<WorkloadSpread>(['workloadspread', name, '-n', NS]);
const podsOf = (app: string) => getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', `app=${app}`]).items.filter((p) => !p.metadata?.deletionTimestamp);
const subsetOf = (p: Pod) => p.metadata?.labels?.['ws-subset'];

function spread(name: string, targetRef: Record<string, string>, maxA: number | string = 2): string {
  return JSON.stringify({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name, namespace: NS },
    spec: {
      targetRef,
      subsets: [
        { name: 'subset-a', maxReplicas: maxA, patch: { metadata: { labels: { 'ws-subset': 'a' } } }, tolerations: [{ key: 'ws-e2e', operator: 'Equal', value: 'a', effect: 'NoSchedule' }] },
        { name: 'subset-b', patch: { metadata: { labels: { 'ws-subset': 'b' } } } },
      ],
    },
  });
}
/** The webhooks' caches hear of a new WorkloadSpread by watch (and its workers by a debounced snapshot). */
const settle = () => new Promise((r) => setTimeout(r, 2_000));
const template = (app: string) => ({ metadata: { labels: { app } }, spec: { ...kwok, containers: [{ name: 'web', image: 'nginx:1.7.9' }] } });

/** Waits for `n` pods of `app` and checks the spread: `a` of them in subset-a, the rest in subset-b, and the status and costs. */
async function expectSpread(ws: string, app: string, n: number, a: number): Promise<void> {
  const pods = await eventually(`${n} pods of ${app}`, () => { const l = podsOf(app); return l.length === n && l; }, 120_000);
  const bySubset = pods.map(subsetOf).sort();
  assert.deepEqual(bySubset, [...Array(a).fill('a'), ...Array(n - a).fill('b')]);
  for (const p of pods) {
    const subset = subsetOf(p);
    assert.deepEqual(JSON.parse(p.metadata!.annotations!['apps.kruise.io/matched-workloadspread']!).subset, `subset-${subset}`);
    assert.equal(p.spec?.tolerations?.some((t) => t.key === 'ws-e2e'), subset === 'a', 'only subset-a pods carry its toleration');
  }
  const status = await eventually(`${ws} status counts the pods`, () => {
    const st = spreadOf(ws).status?.subsetStatuses;
    return st?.[0]?.replicas === a && st[1]?.replicas === n - a && st;
  }, 60_000);
  assert.deepEqual(status.map((x) => [x.name, x.missingReplicas, Object.keys(x.creatingPods ?? {}).length]), [['subset-a', 0, 0], ['subset-b', -1, 0]]);
  await eventually(`${app} deletion costs: subset-a 200, subset-b 100`, () => podsOf(app).every((p) => p.metadata?.annotations?.[COST] === (subsetOf(p) === 'a' ? '200' : '100')), 60_000);
}

describe('WorkloadSpread', { skip: typeof s === 'string' ? s : false, timeout: 600_000 }, () => {
  before(() => { kubectlOk(['create', 'namespace', NS]); });
  after(() => {
    if (typeof s === 'string') return;
    kubectl(['delete', 'workloadspreads,clonesets,deployments', '--all', '-n', NS, '--wait=false']);
    kubectl(['delete', 'pod', '--all', '-n', NS, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('the webhook refuses an invalid WorkloadSpread with upstream\'s message', () => {
    const bad = JSON.parse(spread('bad', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'x' }, '40%'));
    bad.spec.subsets[1].maxReplicas = '70%';
    const r = kubectl(['apply', '-f', '-'], JSON.stringify(bad));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.subsets\[1\]\.maxReplicas: Invalid value: intstr\.IntOrString\{Type:1, IntVal:0, StrVal:"70%"\}: the sum of all subset's maxReplicas exceeds 100% is no permitted/);
  });

  it('spreads a CloneSet\'s new pods: 2 to subset-a (maxReplicas 2), the rest to subset-b', async () => {
    kubectlOk(['apply', '-f', '-'], spread('ws-cs', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' }));
    await settle();
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'cs', namespace: NS },
      spec: { replicas: 5, selector: { matchLabels: { app: 'cs' } }, template: template('cs') } }));
    await expectSpread('ws-cs', 'cs', 5, 2);
    // Scale-in follows the deletion cost: subset-b's pods (100) go before subset-a's (200).
    kubectlOk(['patch', 'clone', 'cs', '-n', NS, '--type=merge', '-p', '{"spec":{"replicas":3}}']);
    await eventually('3 pods left, both of subset-a kept', () => { const l = podsOf('cs'); return l.length === 3 && l.filter((p) => subsetOf(p) === 'a').length === 2; }, 60_000);
  });

  it('adopts the pods a workload had before its WorkloadSpread, by the node they run on', async () => {
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'pre', namespace: NS },
      spec: { replicas: 2, selector: { matchLabels: { app: 'pre' } }, template: template('pre') } }));
    await eventually('2 scheduled pods of pre', () => { const l = podsOf('pre'); return l.length === 2 && l.every((p) => p.spec?.nodeName) && l; }, 120_000);
    const ws = JSON.parse(spread('ws-pre', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'pre' }, 1));
    ws.spec.subsets[0].requiredNodeSelectorTerm = { matchExpressions: [{ key: 'type', operator: 'In', values: ['kwok'] }] };
    ws.spec.subsets[0].tolerations = [];
    ws.spec.subsets[1].requiredNodeSelectorTerm = { matchExpressions: [{ key: 'type', operator: 'In', values: ['none'] }] };
    kubectlOk(['apply', '-f', '-'], JSON.stringify(ws));
    const adopted = await eventually('both pods annotated for ws-pre', () => { const l = podsOf('pre'); return l.every((p) => p.metadata?.annotations?.['apps.kruise.io/matched-workloadspread']) && l; }, 60_000);
    assert.deepEqual(adopted.map((p) => JSON.parse(p.metadata!.annotations!['apps.kruise.io/matched-workloadspread']!)), [{ name: 'ws-pre', subset: 'subset-a' }, { name: 'ws-pre', subset: 'subset-a' }]);
    assert.deepEqual(adopted.map(subsetOf), ['a', 'a'], "the subset patch's labels come with the adoption");
  });

  it('spreads a Deployment\'s new pods the same way (ReplicaSet → Deployment, versioned status)', async () => {
    kubectlOk(['apply', '-f', '-'], spread('ws-dep', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dep' }));
    await settle();
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dep', namespace: NS },
      spec: { replicas: 4, selector: { matchLabels: { app: 'dep' } }, template: template('dep') } }));
    await expectSpread('ws-dep', 'dep', 4, 2);
    const hash = podsOf('dep')[0]!.metadata!.labels!['pod-template-hash']!;
    const versioned = spreadOf('ws-dep').status?.versionedSubsetStatuses?.[hash];
    assert.deepEqual(versioned?.map((x) => [x.name, x.replicas]), [['subset-a', 2], ['subset-b', 2]]);
  });

  it('takes over a WorkloadSpread as OpenKruise v1.9.0 wrote it: its stale creating record is dropped with CreatePodFailed', async () => {
    // What OpenKruise's webhook and controller leave: percent limits, a Fixed strategy, and a status with a record of a
    // pod whose creation never happened.
    const ws = JSON.parse(spread('ws-taken', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'absent' }, '50%'));
    ws.spec.subsets[1].maxReplicas = '50%';
    ws.spec.scheduleStrategy = { type: 'Fixed' };
    kubectlOk(['apply', '-f', '-'], JSON.stringify(ws));
    const stale = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const status = {
      observedGeneration: 1,
      subsetStatuses: [{ name: 'subset-a', replicas: 0, missingReplicas: 0 }, { name: 'subset-b', replicas: 0, missingReplicas: 0 }],
      versionedSubsetStatuses: { versionIgnored: [{ name: 'subset-a', replicas: 0, missingReplicas: 0, creatingPods: { 'absent-x7k2p': stale } }, { name: 'subset-b', replicas: 0, missingReplicas: 0 }] },
    };
    kubectlOk(['patch', 'workloadspread', 'ws-taken', '-n', NS, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
    const after = await eventually('the stale record dropped', () => {
      const st = spreadOf('ws-taken').status;
      return st && !st.versionedSubsetStatuses?.versionIgnored && st;
    }, 60_000);
    assert.deepEqual(after.subsetStatuses?.map((x) => [x.name, x.replicas, x.missingReplicas]), [['subset-a', 0, 0], ['subset-b', 0, 0]]);
    await eventually('a CreatePodFailed event', () => kubectlOk(['get', 'events', '-n', NS, '--field-selector', 'reason=CreatePodFailed', '-o', 'name']).trim() !== '', 30_000);
  });
});
