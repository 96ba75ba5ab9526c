// Two controller replicas on the real apiserver: one holds the Lease and reconciles, the other waits; when the
// leader stops it releases the Lease and the standby takes over and reconciles.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startController, type ControllerProcess } from './harness/cluster/controller.js';
import { killGroups } from './harness/cluster/state.js';
import { eventually, getJson, kubectl, kubectlOk, stack, updateStack } from './harness/kube.js';
import { ensureStandinNode } from './harness/kubelet-standin.js';

const s = stack();
const repoRoot = join(import.meta.dirname, '..');
const ns = 'e2e-leader-election';
const node = 'kts-standin-le';

interface Lease { spec: { holderIdentity?: string; leaseTransitions?: number } }
const holder = () => getJson<Lease>(['lease', '-n', 'kruise-system', 'kruise-manager']).spec.holderIdentity ?? '';

const orderedPod = (name: string) => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: ns, annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } },
  spec: { nodeName: node, containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] },
});
const barrierExists = (pod: string) => kubectl(['get', 'configmap', '-n', ns, `${pod}-barrier`]).code === 0;

describe('controller leader election', { skip: typeof s === 'string' ? s : false }, () => {
  let standby: ControllerProcess | undefined;
  after(() => {
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    kubectl(['delete', 'node', node, '--wait=false']);
  });

  it('a second replica stays standby while the first leads, then takes over when it stops', async () => {
    if (typeof s === 'string' || !s.controller) return;
    ensureStandinNode(node);
    kubectlOk(['create', 'namespace', ns]);
    const first = await eventually('the shared controller holds the lease', () => holder().startsWith('kruise-controller_') && holder(), 60_000);

    standby = await startController({ repoRoot, kubeconfig: process.env.KUBECONFIG!, logDir: dirname(s.controller.log), name: 'kruise-controller-b' });
    // The standby is up and healthy, yet the lease stays with the first replica, which still reconciles.
    kubectlOk(['create', '-f', '-'], orderedPod('while-first-leads'));
    await eventually('barrier made by the leader', () => barrierExists('while-first-leads'), 60_000);
    assert.equal(holder(), first);
    assert.ok((await fetch(`http://127.0.0.1:${standby.healthPort}/readyz`)).ok, 'a standby replica reports ready');

    // SIGTERM: the leader releases the lease on the way out, so the standby need not wait out the lease duration.
    await killGroups([s.controller.pid]);
    s.controller = { pid: standby.daemon.pid, log: standby.daemon.logFile, healthPort: standby.healthPort };
    updateStack(s); // teardown now stops the new leader
    await eventually('the standby holds the lease', () => holder().startsWith('kruise-controller-b_'), 60_000);
    kubectlOk(['create', '-f', '-'], orderedPod('after-takeover'));
    await eventually('barrier made by the new leader', () => barrierExists('after-takeover'), 60_000);
  });
});
