// The gate against the fake apiserver: the status write with the resourceVersion read, a concurrent eviction seen
// through the conflict, the per-PDB serialisation in one process, the opt-out annotation and the backoff.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../shared/api/meta.js';
import { FakeClock } from '../../shared/clock.js';
import type { PodDisruptionBudget } from '../../shared/domain/disruption/pdb-budget.js';
import { resources } from '../../shared/kube/resources.js';
import { FakeCluster } from '../testing/fake-cluster.js';
import { MAX_RETRY_MS, MIN_RETRY_MS, pdbGate, RespectPdbAnnotation } from './pdb-gate.js';

const NOW = Date.parse('2026-03-01T10:00:00Z');

const pod = (name: string): Pod => ({
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-03-01T09:00:00Z' as unknown as Date }] },
});

const budget = (allowed: number): PodDisruptionBudget => ({
  metadata: { name: 'web', namespace: 'default', generation: 1 },
  spec: { selector: { matchLabels: { app: 'web' } } },
  status: { observedGeneration: 1, disruptionsAllowed: allowed, currentHealthy: 3, desiredHealthy: 3 - allowed, expectedPods: 3 },
});

function setup(allowed: number) {
  const cluster = new FakeCluster();
  cluster.seed(resources.podDisruptionBudgets, budget(allowed) as never);
  const pods = ['a', 'b', 'c'].map((n) => cluster.seed(resources.pods, pod(n)));
  const clock = new FakeClock(NOW);
  const gate = pdbGate({
    rest: cluster.rest, clock,
    pdbs: cluster.informers.cache(resources.podDisruptionBudgets),
    pod: (ns, name) => cluster.get(resources.pods, name, ns),
  });
  const stored = () => cluster.get<PodDisruptionBudget & { metadata: object }>(resources.podDisruptionBudgets, 'web', 'default')!;
  return { cluster, pods, clock, gate, stored };
}

const owner = { metadata: { name: 'scs' } };

describe('pdbGate', () => {
  it('takes one disruption through the status subresource; the next pod waits', async () => {
    const { cluster, pods, gate, stored } = setup(1);
    assert.deepEqual(await gate.admit(owner, pods[0]!), { go: true });
    assert.equal(stored().status?.disruptionsAllowed, 0);
    assert.deepEqual(stored().status?.disruptedPods, { a: '2026-03-01T10:00:00Z' });
    assert.deepEqual(cluster.calls.filter((c) => c.plural === 'poddisruptionbudgets'), [{ method: 'PUT', plural: 'poddisruptionbudgets', name: 'web', subresource: 'status' }]);
    const second = await gate.admit(owner, pods[1]!);
    assert.equal(second.go, false);
    // The first pod again (its write failed, say): already recorded, no second spend.
    assert.deepEqual(await gate.admit(owner, pods[0]!), { go: true });
  });

  it('many pods at once in one process, one disruption: exactly one goes', async () => {
    const { pods, gate, stored } = setup(1);
    const verdicts = await Promise.all([...pods, ...pods].map((p) => gate.admit(owner, p)));
    const went = new Set(verdicts.flatMap((v, i) => (v.go ? [[...pods, ...pods][i]!.metadata!.name] : [])));
    assert.equal(went.size, 1);
    assert.equal(Object.keys(stored().status?.disruptedPods ?? {}).length, 1);
  });

  it('a concurrent eviction spent the budget after the cache was read: the conflict re-reads, and the pod waits', async () => {
    const { cluster, pods, gate, stored } = setup(1);
    cluster.lagging(resources.podDisruptionBudgets, true);
    // kubectl drain's eviction of pod c, through the apiserver, unseen by the cache.
    const evicted = stored();
    await cluster.rest.replace(resources.podDisruptionBudgets, { ...evicted, status: { ...evicted.status!, disruptionsAllowed: 0, disruptedPods: { c: '2026-03-01T09:59:59Z' } } } as never, { subresource: 'status' });
    const v = await gate.admit(owner, pods[0]!);
    assert.equal(v.go, false);
    assert.match((v as { reason: string }).reason, /Cannot evict pod as it would violate/);
    assert.deepEqual(stored().status?.disruptedPods, { c: '2026-03-01T09:59:59Z' }, 'the eviction\'s record stands, nothing of ours added');
    assert.deepEqual(cluster.calls.filter((c) => c.plural === 'poddisruptionbudgets').map((c) => c.method), ['PUT', 'PUT', 'GET']);
  });

  it('waits back off per pod from 1 s to 30 s, and a pod that gets through starts over', async () => {
    const { pods, gate } = setup(0);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const v = await gate.admit(owner, pods[0]!);
      assert.equal(v.go, false);
      delays.push((v as { retryAfterMs: number }).retryAfterMs);
    }
    assert.deepEqual(delays, [MIN_RETRY_MS, 2000, 4000, 8000, 16000, MAX_RETRY_MS, MAX_RETRY_MS, MAX_RETRY_MS]);
  });

  it(`${RespectPdbAnnotation}: "false" on the owner skips the gate`, async () => {
    const { cluster, pods, gate } = setup(0);
    assert.deepEqual(await gate.admit({ metadata: { annotations: { [RespectPdbAnnotation]: 'false' } } }, pods[0]!), { go: true });
    assert.equal(cluster.calls.length, 0);
  });

  it('podChanged: the pod this gate took a disruption for, Ready again since, gives it back at once; other pods are not looked at', async () => {
    const { cluster, pods, gate, stored } = setup(1);
    await gate.admit(owner, pods[0]!);
    const a = cluster.get<Pod>(resources.pods, 'a', 'default')!;
    await gate.podChanged(a);
    assert.deepEqual(Object.keys(stored().status?.disruptedPods ?? {}), ['a'], 'still restarting: Ready since before the record');
    a.status!.conditions![0]!.lastTransitionTime = '2026-03-01T10:00:03Z' as unknown as Date;
    await cluster.rest.replace(resources.pods, a as never);
    const writes = cluster.calls.length;
    await gate.podChanged(pods[1]!);
    assert.equal(cluster.calls.length, writes, 'a pod the gate took nothing for costs nothing');
    await gate.podChanged(a);
    assert.deepEqual(stored().status?.disruptedPods, {});
    await gate.podChanged(a);
    assert.equal(cluster.calls.filter((c) => c.method === 'PUT' && c.plural === 'poddisruptionbudgets').length, 2, 'one take, one release, nothing more');
  });

  it('a pod back to Ready after its in-place restart is dropped from disruptedPods, so the disruption controller recounts it', async () => {
    const { cluster, pods, gate, stored, clock } = setup(1);
    await gate.admit(owner, pods[0]!);
    // Kubelet restarted the container: pod a is Ready again since after its record.
    clock.advance(5_000);
    const a = cluster.get<Pod>(resources.pods, 'a', 'default')!;
    a.status!.conditions![0]!.lastTransitionTime = '2026-03-01T10:00:04Z' as unknown as Date;
    await cluster.rest.replace(resources.pods, a as never);
    const v = await gate.admit(owner, pods[1]!);
    assert.equal(v.go, false, 'disruptionsAllowed is still 0 until the disruption controller recounts');
    assert.deepEqual(stored().status?.disruptedPods, {});
  });
});
