// The SidecarSet controller across pod lifecycles: the leading controller's process SIGKILLed mid-rollout (no Lease
// release) and whichever replica takes the expired Lease (the standby, or the same pod's restarted container)
// finishing it (no pod updated twice, maxUnavailable kept), and the two
// replicas Helm installs, where only the Lease holder writes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1Lease } from '@kubernetes/client-node';
import type { Pod } from '../shared/api/meta.js';
import { kubectl, kubectlOk, stack } from './harness/kube.js';
import { killControllerProcess, leaderPod, leaseHolder, needsPods, newHolderPod, podLog, pods as managerPods, rolledOut } from './harness/release.js';
import { ensureStandinNode } from './harness/kubelet-standin.js';
import { sidecarImage, SidecarSets, waitUntil } from './harness/sidecarset-fixtures.js';
import { keepNodeReady, StandinKubelet, testRest, unavailable } from './harness/standin-kubelet-loop.js';

const s = stack();
const ns = 'e2e-sidecarset-ha';
const node = 'kts-standin-scs-ha';
const ROLLOUT_LOG = 'updated sidecars in place';

/** When each pod's hash entry for `set` was stamped: a second write for the same revision would re-stamp it. */
const stamps = (pods: Pod[], set: string) => new Map(pods.map((p) => [p.metadata!.name!,
  (JSON.parse(p.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<string, { hash: string; updateTimestamp: string }>)[set]]));

describe('SidecarSet controller: restarts and replicas', { skip: needsPods(s), timeout: 600_000 }, () => {
  if (needsPods(s)) return;
  const rest = testRest();
  const sets = new SidecarSets(rest, ns, node);

  let stopHeartbeats = () => {};
  before(() => {
    ensureStandinNode(node);
    stopHeartbeats = keepNodeReady(rest, node);
    kubectlOk(['create', 'namespace', ns]);
  });
  after(async () => {
    stopHeartbeats();
    await rolledOut('controller-manager');
    kubectl(['delete', 'sidecarset', 'restart', 'replicas', '--ignore-not-found']);
    kubectl(['delete', 'pod', '--all', '-n', ns, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    kubectl(['delete', 'node', node, '--wait=false']);
  });

  it('the leading controller SIGKILLed mid-rollout: the next Lease holder finishes the rollout, no pod updated twice, maxUnavailable kept', async () => {
    await rolledOut('controller-manager');
    const leader = await leaderPod();
    await sets.create('restart', 'restart', 'busybox:1.35.0', { maxUnavailable: 1 });
    await sets.pods('restart', 4, { app: 'restart' });
    const k = new StandinKubelet(rest, ns, node);
    await k.until((pods) => pods.length === 4 && unavailable(pods).length === 0, { what: 'pods started' });
    await sets.status('restart', { matchedPods: 4, readyPods: 4 });
    await sets.setImage('restart', 'busybox:1.36.0');

    const seen = new Map<string, { hash: string; updateTimestamp: string } | undefined>();
    const record = (pods: Pod[]) => {
      assert.ok(unavailable(pods).length <= 1, `maxUnavailable 1: ${unavailable(pods).join(', ')}`);
      for (const [name, stamp] of stamps(pods, 'restart')) {
        if (sidecarImage(pods.find((p) => p.metadata?.name === name)!) !== 'busybox:1.36.0') continue;
        if (!seen.has(name)) seen.set(name, stamp);
        else assert.deepEqual(stamp, seen.get(name), `${name} written again after its update`);
      }
    };
    // SIGKILL while the rollout is under way (a pod possibly still restarting), as the OOM killer would: no Lease
    // release, no clean stop; the next holder waits out the Lease.
    const updated = (pods: Pod[]) => pods.filter((p) => sidecarImage(p) === 'busybox:1.36.0').length;
    await k.until((pods) => updated(pods) >= 1 && updated(pods) <= 3, { what: 'rollout under way', check: record, settled: false });
    const killedHolder = leaseHolder();
    assert.equal(killControllerProcess(leader), 1, `the controller process of ${leader}`);
    const successor = await newHolderPod(killedHolder);

    const pods = await k.until((ps) => ps.every((p) => sidecarImage(p) === 'busybox:1.36.0') && unavailable(ps).length === 0, { what: 'rollout finished by the replacement', check: record, timeoutMs: 180_000 });
    for (const p of pods) assert.equal(k.restarts.get(`${p.metadata!.name}/sidecar`), 1, `${p.metadata!.name}: sidecar image changed once`);
    await sets.status('restart', { matchedPods: 4, updatedPods: 4, updatedReadyPods: 4 }, 120_000);
    assert.match(podLog(successor), new RegExp(ROLLOUT_LOG), 'the successor did part of the rollout');
  });

  it('two replicas: one holds the Lease and does every write; the other stays idle', async () => {
    await rolledOut('controller-manager');
    const first = { name: await leaderPod() };
    const second = managerPods('controller-manager').map((p) => p.metadata.name).find((n) => n !== first.name)!;

    await sets.create('replicas', 'replicas', 'busybox:1.35.0', { maxUnavailable: 2 });
    await sets.pods('replicas', 3, { app: 'replicas' });
    const k = new StandinKubelet(rest, ns, node);
    const mine = (pods: Pod[]) => pods.filter((p) => p.metadata?.labels?.app === 'replicas');
    await k.until((pods) => mine(pods).length === 3 && unavailable(mine(pods)).length === 0, { what: 'pods started' });
    await sets.setImage('replicas', 'busybox:1.36.0');
    await k.until((pods) => mine(pods).every((p) => sidecarImage(p) === 'busybox:1.36.0') && unavailable(mine(pods)).length === 0, {
      what: 'rollout', check: (pods) => assert.ok(unavailable(mine(pods)).length <= 2),
    });
    await sets.status('replicas', { matchedPods: 3, updatedReadyPods: 3 });

    const lease = await waitUntil('lease', async () => (await rest.get<V1Lease>({ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true },
      { namespace: 'kruise-system', name: 'kruise-manager' })));
    assert.ok(lease.spec?.holderIdentity?.startsWith(`${first.name}_`), `the first replica leads: ${lease.spec?.holderIdentity}`);
    const secondLog = podLog(second);
    assert.doesNotMatch(secondLog, new RegExp(ROLLOUT_LOG), 'the standby wrote nothing');
    assert.doesNotMatch(secondLog, /caches synced; starting controllers/, 'the standby never started its controllers');
    assert.equal(podLog(first.name).split('\n').filter((l) => l.includes(ROLLOUT_LOG) && l.includes('replicas-')).length >= 1, true);
  });
});
