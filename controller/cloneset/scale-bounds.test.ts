// N-H1 (second review): a huge `replicas` must cost one slow-start batch, not one pod object per missing replica.
// The review's reproduction: the real reconcile over the FakeCluster with every pod create refused, as a
// ResourceQuota refuses them. Costs are counted (requests sent, ids drawn), never timed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { FakeClock } from '../../shared/clock.js';
import type { CloneSetRevision } from '../../shared/domain/cloneset/revision.js';
import type { Claim } from '../../shared/domain/cloneset/volume-claims.js';
import { resources } from '../../shared/kube/resources.js';
import { KubeApiError } from '../../shared/kube/rest.js';
import { silentLogger } from '../../shared/log.js';
import { FakeCluster } from '../testing/fake-cluster.js';
import { ResourceVersionExpectations, ScaleExpectations } from './expectations.js';
import { cloneSetReconciler } from './reconcile.js';
import { createsPerRound, MAX_CREATES_PER_ROUND } from './scale-sync.js';
import { webCloneSet } from './test-harness.js';

/** Each instance id takes 5 draws; past this many the test stops the reconcile instead of letting it run for minutes. */
const DRAW_GUARD = 100_000;

function setup(replicas: number, refuseCreates: boolean, claimTemplates = 0) {
  const cluster = new FakeCluster();
  cluster.seed(resources.cloneSets, webCloneSet((cs) => {
    cs.spec!.replicas = replicas;
    if (claimTemplates) cs.spec!.volumeClaimTemplates = Array.from({ length: claimTemplates }, (_, i) => ({ metadata: { name: `data-${i}` }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
  }));
  const create = cluster.rest.create;
  cluster.rest.create = (async (r, obj, o) => {
    if (refuseCreates && r === resources.pods) {
      cluster.calls.push({ method: 'POST', plural: r.plural, name: obj.metadata?.name ?? '' });
      throw new KubeApiError('POST', 'pods', 403, JSON.stringify({ reason: 'Forbidden', message: 'exceeded quota: pods' }));
    }
    return create(r, obj, o);
  }) as typeof create;
  const draws = { n: 0 };
  const random = () => {
    if (++draws.n > DRAW_GUARD) throw new Error(`more than ${DRAW_GUARD} random draws: ids are built for every missing replica`);
    return Math.random();
  };
  const clock = new FakeClock(Date.parse('2025-06-01T12:00:00Z'));
  const events: string[] = [];
  const pods = cluster.informers.cache<Pod>(resources.pods);
  const claims = cluster.informers.cache<Claim & KubernetesObject>(resources.persistentVolumeClaims);
  const reconcile = cloneSetReconciler({
    rest: cluster.rest, clock, log: silentLogger(), events: { event: (_o, _t, reason) => events.push(reason) },
    scaleExpectations: new ScaleExpectations(() => clock.now()), rvExpectations: new ResourceVersionExpectations(() => clock.now()), random,
    cloneSets: cluster.informers.cache<CloneSet>(resources.cloneSets),
    revisions: cluster.informers.cache<CloneSetRevision>(resources.controllerRevisions),
    podsOwnedBy: (uid) => pods.list().filter((p) => p.metadata?.ownerReferences?.some((r) => r.uid === uid)),
    claimsOwnedBy: (uid) => claims.list().filter((c) => c.metadata?.ownerReferences?.some((r) => r.uid === uid)),
  });
  const run = () => reconcile('default/web', { log: silentLogger(), signal: new AbortController().signal });
  return { cluster, draws, events, run };
}

describe('CloneSet scale-up cost is bounded by one round, whatever replicas says (N-H1)', () => {
  for (const replicas of [100_000, 1_000_000, 15_000_000]) {
    it(`replicas ${replicas}, every create refused: one create sent, one id drawn, FailedScale reported`, async () => {
      const { cluster, draws, events, run } = setup(replicas, true);
      await assert.rejects(run(), /exceeded quota/);
      const posts = cluster.calls.filter((c) => c.method === 'POST' && c.plural === 'pods');
      assert.equal(posts.length, 1, 'slow start stops after the first batch (of 1)');
      assert.ok(cluster.calls.length <= 6, `requests in the round: ${cluster.calls.map((c) => `${c.method} ${c.plural}`).join(', ')}`);
      assert.equal(draws.n, 5, 'one instance id (5 characters) drawn: one pod object built');
      assert.deepEqual(events, ['FailedCreate']);
      const cond = cluster.get<CloneSet>(resources.cloneSets, 'web', 'default')!.status?.conditions?.find((c) => c.type === 'FailedScale');
      assert.match(cond?.message ?? '', /exceeded quota/);
    });
  }

  it(`replicas 100000, creates accepted: one round sends ${MAX_CREATES_PER_ROUND} and asks to come back for the rest`, async () => {
    const { cluster, draws, run } = setup(100_000, false);
    const res = await run();
    const posts = cluster.calls.filter((c) => c.method === 'POST' && c.plural === 'pods');
    assert.equal(posts.length, MAX_CREATES_PER_ROUND);
    assert.equal(new Set(posts.map((p) => p.name)).size, MAX_CREATES_PER_ROUND, 'distinct names');
    assert.equal(draws.n, 5 * MAX_CREATES_PER_ROUND, 'no id drawn beyond the ones sent');
    assert.ok(res && typeof res.requeueAfterMs === 'number', 'requeued for the rest');
  });

  it(`replicas 100000 with 4 claim templates: one round sends ${MAX_CREATES_PER_ROUND} creates in all, pods and PVCs`, async () => {
    const { cluster, run } = setup(100_000, false, 4);
    await run();
    const posts = (plural: string) => cluster.calls.filter((c) => c.method === 'POST' && c.plural === plural).length;
    assert.equal(posts('pods'), createsPerRound([1, 2, 3, 4]));
    assert.equal(posts('pods'), 100);
    assert.equal(posts('persistentvolumeclaims'), 400);
  });
});
