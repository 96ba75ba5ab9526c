// Issue 23, "controllers never block their event loop", on the installed chart: a CloneSet asking for 100,000
// replicas whose pods a ResourceQuota refuses (the review's N-H1 typo) must not stop the other controllers. While
// the CloneSet controller retries, the leader keeps renewing its Lease (same holder, renewTime advancing, no
// transition) and a SidecarSet's status follows a new pod within seconds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CloneSet } from '../shared/api/cloneset.js';
import { resources } from '../shared/kube/resources.js';
import { getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { ensureStandinNode } from './harness/kubelet-standin.js';
import { leaderPod, MANAGER_NS, needsPods, pods } from './harness/release.js';
import { SidecarSets, waitUntil } from './harness/sidecarset-fixtures.js';
import { testRest } from './harness/standin-kubelet-loop.js';

const s = stack();
const quotaNs = 'e2e-isolation-quota';
const podNs = 'e2e-isolation-pods';
const node = 'kts-standin-iso';

interface Lease { spec: { holderIdentity?: string; renewTime?: string; leaseTransitions?: number } }
const lease = () => getJson<Lease>(['lease', '-n', MANAGER_NS, 'kruise-manager']).spec;
const restarts = () => pods('controller-manager').map((p) => (p.status.containerStatuses ?? []).reduce((n, c) => n + c.restartCount, 0)).reduce((a, b) => a + b, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('controller isolation: a 100,000-replica CloneSet refused by a quota', { skip: needsPods(s), timeout: 600_000 }, () => {
  const rest = typeof s === 'string' ? undefined! : testRest();
  const sets = typeof s === 'string' ? undefined! : new SidecarSets(rest, podNs, node);

  before(() => {
    ensureStandinNode(node);
    kubectlOk(['create', 'namespace', quotaNs]);
    kubectlOk(['create', 'namespace', podNs]);
    kubectlOk(['create', 'quota', 'no-pods', '-n', quotaNs, '--hard=pods=0']);
  });
  after(() => {
    if (typeof s === 'string') return;
    kubectl(['delete', 'clonesets', '--all', '-n', quotaNs, '--wait=false']);
    kubectl(['delete', 'sidecarset', 'iso', '--ignore-not-found', '--wait=false']);
    kubectl(['delete', 'pod', '--all', '-n', podNs, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'namespace', quotaNs, podNs, '--wait=false']);
    kubectl(['delete', 'node', node, '--wait=false']);
  });

  it('keeps the lease (same holder, renewTime advancing) and writes another SidecarSet\'s status within seconds', async () => {
    const leader = await leaderPod();
    const before = lease();
    const restartsBefore = restarts();
    await sets.create('iso', 'iso', 'busybox:1.35.0');

    await rest.create<CloneSet>(resources.cloneSets, {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'huge', namespace: quotaNs },
      spec: { replicas: 100_000, selector: { matchLabels: { app: 'huge' } },
        template: { metadata: { labels: { app: 'huge' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.35.0', command: ['sleep', '1d'] }] } } },
    } as CloneSet);
    // The controller has reached the CloneSet: the refused create is reported in its status.
    await waitUntil('FailedScale with the quota refusal', async () => {
      const cs = await rest.get<CloneSet>(resources.cloneSets, { namespace: quotaNs, name: 'huge' });
      return cs.status?.conditions?.some((c) => c.type === 'FailedScale' && /exceeded quota/.test(c.message ?? '')) ?? false;
    }, 60_000);

    // For 40 s of retries: the lease stays with the leader and is renewed (retryPeriod 2 s, renewDeadline 10 s),
    // while pods matching the SidecarSet appear one by one and its status follows each within seconds.
    const renewals = new Set<string>();
    const statusLag: number[] = [];
    for (let i = 0; i < 4; i++) {
      await sets.pods(`iso-${i}`, 1, { app: 'iso' });
      const t0 = Date.now();
      await sets.status('iso', { matchedPods: i + 1 }, 15_000);
      statusLag.push(Date.now() - t0);
      for (const until = t0 + 10_000; Date.now() < until; await sleep(1000)) {
        const l = lease();
        assert.ok(l.holderIdentity?.startsWith(`${leader}_`), `lease moved to ${l.holderIdentity}`);
        assert.equal(l.leaseTransitions, before.leaseTransitions, 'no leader change');
        assert.ok(Date.now() - Date.parse(l.renewTime ?? '') < 10_000, `renewTime ${l.renewTime} is stale`);
        renewals.add(l.renewTime ?? '');
      }
    }
    assert.ok(renewals.size >= 10, `renewTime advanced ${renewals.size} times in 40 s`);
    assert.equal(restarts(), restartsBefore, 'no controller container restarted');
    process.stdout.write(`# SidecarSet status after a new pod: ${statusLag.map((ms) => `${ms} ms`).join(', ')}; lease renewals seen: ${renewals.size}\n`);
  });
});
