// The two controller replicas Helm installs, on the real apiserver: one holds the Lease and reconciles, the other
// waits Ready; when the leader's pod is deleted it releases the Lease on SIGTERM and another replica (the standby,
// or the pod replacing the deleted one, whichever campaigns first) takes over and reconciles.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { eventually, kubectl, kubectlOk, stack } from './harness/kube.js';
import { ensureStandinNode } from './harness/kubelet-standin.js';
import { leaderPod, leaseHolder, MANAGER_NS, needsPods, newLeaderPod, podLog, pods, rolledOut } from './harness/release.js';

const s = stack();
const ns = 'e2e-leader-election';
const node = 'kts-standin-le';

const orderedPod = (name: string) => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: ns, annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } },
  spec: { nodeName: node, containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] },
});
const barrierExists = (pod: string) => kubectl(['get', 'configmap', '-n', ns, `${pod}-barrier`]).code === 0;

describe('controller leader election', { skip: needsPods(s), timeout: 600_000 }, () => {
  after(async () => {
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    kubectl(['delete', 'node', node, '--wait=false']);
    await rolledOut('controller-manager');
  });

  it('the second replica stays standby while the first leads; another replica takes over when the leader\'s pod is deleted', async () => {
    ensureStandinNode(node);
    kubectlOk(['create', 'namespace', ns]);
    await rolledOut('controller-manager');
    const first = await leaderPod();
    const standby = pods('controller-manager').map((p) => p.metadata.name).find((n) => n !== first);
    assert.ok(standby, 'a second replica');

    // The standby is Ready, yet the lease stays with the first replica, which alone reconciles.
    kubectlOk(['create', '-f', '-'], orderedPod('while-first-leads'));
    await eventually('barrier made by the leader', () => barrierExists('while-first-leads'), 60_000);
    assert.ok(leaseHolder().startsWith(`${first}_`));
    assert.doesNotMatch(podLog(standby), /caches synced; starting controllers/, 'the standby never started its controllers');

    // A graceful delete (SIGTERM): the leader releases the lease on the way out, so the standby need not wait out
    // the lease duration.
    kubectlOk(['delete', 'pod', '-n', MANAGER_NS, first, '--wait=false']);
    await newLeaderPod(first, 60_000);
    kubectlOk(['create', '-f', '-'], orderedPod('after-takeover'));
    await eventually('barrier made by the new leader', () => barrierExists('after-takeover'), 60_000);
  });
});
