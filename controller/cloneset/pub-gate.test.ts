// CloneSet's PUB pre-check (spec/availability-guards.md §17.2): one unit spent per pod update as UPDATE; a refusal
// holds the round and asks for a 1 s requeue.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../shared/api/meta.js';
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster } from '../testing/fake-cluster.js';
import type { Round } from './context.js';
import { pubAllowsUpdate, pubUpdateGate, PUB_DENIED_REQUEUE_MS } from './pub-gate.js';

const pod = (name: string, annotations: Record<string, string> = { 'kruise.io/related-pub': 'pub' }): Pod => ({
  metadata: { name, namespace: 'default', annotations },
  spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c', image: 'nginx:1', imageID: 'nginx@sha256:1', ready: true, restartCount: 0 }] },
});

describe('CloneSet PUB pre-check', () => {
  it('the first pod spends the last unit (unavailablePods), the second is held with a 1 s requeue; exempt pods pass', async () => {
    const cluster = new FakeCluster();
    const { deps } = fakeDeps(cluster);
    const gate = pubUpdateGate(deps, false);
    cluster.seed(resources.podUnavailableBudgets, { metadata: { name: 'pub', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
      status: { unavailableAllowed: 1, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 } } as never);
    const round = { deps: { pubUpdateGate: gate } } as unknown as Round;
    assert.equal(await pubAllowsUpdate(round, pod('web-0')), true);
    const pub = cluster.get<PodUnavailableBudget & { metadata: object }>(resources.podUnavailableBudgets, 'pub', 'default')!;
    assert.equal(pub.status?.unavailableAllowed, 0);
    assert.ok(pub.status?.unavailablePods?.['web-0'], 'recorded as UPDATE');
    assert.equal(round.requeueAfterMs, undefined);
    assert.equal(await pubAllowsUpdate(round, pod('web-1')), false);
    assert.equal(round.requeueAfterMs, PUB_DENIED_REQUEUE_MS);
    assert.equal(await pubAllowsUpdate(round, pod('web-2', { 'kruise.io/related-pub': 'pub', 'pub.kruise.io/no-protect': 'true' })), true, 'no-protect');
    assert.equal(await pubAllowsUpdate(round, pod('web-3', {})), true, 'no related pub');
    assert.equal(await pubAllowsUpdate(round, pod('web-0')), true, 'already recorded: not spent twice');
  });
  it('without the gate every pod goes', async () => {
    assert.equal(await pubAllowsUpdate({ deps: {} } as unknown as Round, pod('web-0')), true);
  });
});
