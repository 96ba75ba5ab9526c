// In-place updates that respect the cluster's PodDisruptionBudgets (issue 26 part 4), on the real node: a SidecarSet
// rollout with maxUnavailable 100% over three pods a PDB (maxUnavailable 1) covers, while `kubectl drain` evicts the
// same pods. A watch on the pods records the apiserver's every state in order; in none of them may more than one of
// the three be unavailable. Plus deletion protection: a namespace labelled delete-protection=Always is not deleted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../shared/api/meta.js';
import { resources } from '../shared/kube/resources.js';
import { eventually, getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';
import { testRest } from './harness/standin-kubelet-loop.js';

const s = stack();
const node = typeof s === 'string' ? undefined : s.realNode;
const skip = typeof s === 'string' ? s : node ? false : 'the stack has no real node (KRUISE_TS_REAL_NODE=0)';
const NS = 'e2e-pdb-inplace';
const SET = 'pdb-inplace';
const APP = 'pdb-inplace';
const OLD = 'busybox:1.35.0';
const NEW = 'busybox:1.36.0';
const REPLICAS = 3;

const ready = (p: Pod) => !p.metadata?.deletionTimestamp && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
const sidecarImage = (p: Pod) => p.spec?.containers.find((c) => c.name === 'sidecar')?.image;

/** `kubectl drain` in the background: resolves with its exit code and output. */
function drain(nodeName: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('kubectl', ['drain', nodeName, `--pod-selector=app=${APP}`, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=300s']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('in-place updates and PodDisruptionBudgets on the real node', { skip, timeout: 600_000 }, () => {
  const name = node?.name ?? '';
  const rest = typeof s === 'string' ? undefined! : testRest();

  before(async () => {
    assert.ok(typeof s !== 'string' && await serves(s, '/mutate-pod'), 'the manager serves /mutate-pod');
    kubectlOk(['create', 'namespace', NS]);
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: SET },
      spec: { namespace: NS, selector: { matchLabels: { app: APP } }, updateStrategy: { maxUnavailable: '100%' },
        // Not ready for ~2 s after each (re)start, so an in-place restart shows in the pod's Ready condition.
        containers: [{ name: 'sidecar', image: OLD, command: ['sleep', '999d'], readinessProbe: { exec: { command: ['true'] }, initialDelaySeconds: 2, periodSeconds: 1 } }] },
    }));
    await untilInjected(NS, { app: APP }, 'sidecar', OLD);
    // nodeName: the kubelet admits the pods on a cordoned node too, so the drain's replacements come back there.
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: APP, namespace: NS },
      spec: { replicas: REPLICAS, selector: { matchLabels: { app: APP } }, template: { metadata: { labels: { app: APP } },
        spec: { nodeName: name, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: OLD, command: ['sleep', '999d'] }] } } },
    }));
    kubectlOk(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: APP, namespace: NS },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: APP } } },
    }));
    await eventually('3 pods Ready and the PDB allowing 1', () => {
      const pods = getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', `app=${APP}`]).items;
      const pdb = getJson<{ status?: { disruptionsAllowed?: number; currentHealthy?: number } }>(['pdb', APP, '-n', NS]);
      return pods.filter(ready).length === REPLICAS && pdb.status?.disruptionsAllowed === 1 && pdb.status.currentHealthy === REPLICAS;
    }, 240_000);
  });
  after(() => {
    if (name) kubectl(['uncordon', name]);
    kubectl(['delete', 'sidecarset', SET, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('a maxUnavailable 100% sidecar rollout and a concurrent kubectl drain never have two of the pods unavailable at once', async () => {
    const pods = new Map<string, Pod>();
    let worst = 0;
    let primed = false;
    const timeline: string[] = [];
    const t0 = Date.now();
    const stop = new AbortController();
    const watching = rest.watch<Pod & { metadata: object }>(resources.pods, { namespace: NS, labelSelector: `app=${APP}` }, (e) => {
      if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
      const key = e.object.metadata?.name ?? '';
      if (e.type === 'DELETED') pods.delete(key); else pods.set(key, e.object);
      // The watch opens with one ADDED per pod: states count once all three are in.
      if (!primed && pods.size < REPLICAS) return;
      primed = true;
      const available = [...pods.values()].filter(ready).length;
      const down = REPLICAS - available;
      if (down > worst) worst = down;
      timeline.push(`${((Date.now() - t0) / 1000).toFixed(1)}s ${e.type} ${key}: ${available} Ready`);
    }, stop.signal);
    const originals = new Map(getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', `app=${APP}`]).items.map((p) => [p.metadata!.name!, p.metadata!.uid!]));
    try {
      kubectlOk(['patch', 'sidecarset', SET, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/containers/0/image', value: NEW }])]);
      // The first in-place restart has its disruption; then the drain competes for the rest of the budget.
      await eventually('a pod updated in place', () => [...pods.values()].some((p) => originals.get(p.metadata!.name!) === p.metadata!.uid && sidecarImage(p) === NEW), 60_000);
      const drained = await drain(name);
      assert.equal(drained.code, 0, drained.out);
      const evicted = drained.out.match(/evicted/g)?.length ?? 0;
      assert.ok(evicted >= 1, `the drain evicted pods: ${drained.out}`);
      await eventually('3 pods Ready on the new sidecar', () => {
        const now = [...pods.values()];
        return now.filter((p) => ready(p) && sidecarImage(p) === NEW).length === REPLICAS && now.length === REPLICAS;
      }, 240_000);
      const inPlace = [...pods.values()].filter((p) => originals.get(p.metadata!.name!) === p.metadata!.uid).length;
      process.stdout.write(`# pdb-inplace: ${evicted} evicted by the drain, ${inPlace} of ${REPLICAS} remaining pods updated in place, worst ${worst} unavailable, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
      assert.ok(worst >= 1, 'the rollout and the drain did disrupt pods');
      assert.equal(worst, 1, `never more unavailable than the PDB's maxUnavailable:\n${timeline.join('\n')}`);
    } finally {
      stop.abort();
      await watching.catch(() => undefined);
      kubectl(['uncordon', name]);
    }
  });
});

describe('deletion protection (ResourcesDeletionProtection)', { skip: typeof s === 'string' ? s : false, timeout: 120_000 }, () => {
  const ns = 'e2e-delete-protection';
  after(() => {
    kubectl(['label', 'namespace', ns, 'policy.kruise.io/delete-protection-']);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
  });

  it('a namespace labelled delete-protection=Always cannot be deleted; without the label it can', async () => {
    kubectlOk(['create', 'namespace', ns]);
    kubectlOk(['label', 'namespace', ns, 'policy.kruise.io/delete-protection=Always']);
    const denied = await eventually('the DELETE refused by the webhook', () => {
      const r = kubectl(['delete', 'namespace', ns, '--dry-run=server']);
      return r.code !== 0 && r.stderr;
    }, 60_000);
    assert.match(denied, /admission webhook "vnamespace\.kb\.io" denied the request: forbidden by ResourcesProtectionDeletion for policy\.kruise\.io\/delete-protection=Always/);
    const r = kubectl(['delete', 'namespace', ns, '--wait=false']);
    assert.notEqual(r.code, 0);
    assert.equal(getJson<{ metadata: { deletionTimestamp?: string } }>(['namespace', ns]).metadata.deletionTimestamp, undefined, 'still there, not terminating');
    kubectlOk(['label', 'namespace', ns, 'policy.kruise.io/delete-protection-']);
    kubectlOk(['delete', 'namespace', ns, '--wait=false']);
  });
});
