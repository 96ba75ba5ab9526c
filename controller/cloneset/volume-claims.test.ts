// The CloneSet controller with volumeClaimTemplates (spec/cloneset.md §2.5) against the fake apiserver: one PVC per
// pod, created before it and owned by the CloneSet; deleted with a pod the controller deletes; reused by the pod
// that replaces one deleted by someone else, unless disablePVCReuse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { resources } from '../../shared/kube/resources.js';
import { CloneSetHarness, webCloneSet } from './test-harness.js';

const withClaims = (edit: (cs: ReturnType<typeof webCloneSet>) => void = () => {}) => webCloneSet((cs) => {
  cs.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'data', mountPath: '/data' }];
  cs.spec!.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } }];
  edit(cs);
});

const claims = (h: CloneSetHarness) => h.cluster.informers.cache<V1PersistentVolumeClaim & { metadata: object }>(resources.persistentVolumeClaims).list()
  .filter((c) => !c.metadata?.deletionTimestamp);
const id = (o: { metadata?: { labels?: Record<string, string> } }) => o.metadata?.labels?.['apps.kruise.io/cloneset-instance-id'];

describe('cloneset-controller volumeClaimTemplates', () => {
  it('each pod gets its PVC data-web-<id>, created before the pod, owned by the CloneSet, mounted by the pod', async () => {
    const h = new CloneSetHarness(withClaims());
    await h.settle();
    const pods = h.pods();
    assert.equal(pods.length, 3);
    const cs = claims(h);
    assert.deepEqual(cs.map((c) => c.metadata?.name).sort(), pods.map((p) => `data-web-${id(p)}`).sort());
    for (const c of cs) {
      assert.deepEqual(c.metadata?.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'cs-uid', controller: true, blockOwnerDeletion: true }]);
      assert.equal(c.metadata?.labels?.app, 'web');
    }
    for (const p of pods) assert.deepEqual(p.spec?.volumes?.[0], { name: 'data', persistentVolumeClaim: { claimName: `data-web-${id(p)}` } });
    const order = h.cluster.calls.filter((c) => c.method === 'POST' && (c.plural === 'pods' || c.plural === 'persistentvolumeclaims')).map((c) => c.plural);
    assert.equal(order[0], 'persistentvolumeclaims', 'a pod\'s claim is created before the pod');
  });

  it('scale-in deletes the pod and its PVC', async () => {
    const h = new CloneSetHarness(withClaims());
    await h.settle();
    await h.editCloneSet((cs) => { cs.spec!.replicas = 1; });
    await h.settle();
    assert.equal(h.pods().length, 1);
    assert.deepEqual(claims(h).map((c) => c.metadata?.name), [`data-web-${id(h.pods()[0]!)}`]);
  });

  it('a pod deleted by someone else is replaced by a pod with the same instance id, reusing its PVC', async () => {
    const h = new CloneSetHarness(withClaims());
    await h.settle();
    const before = claims(h).map((c) => [c.metadata?.name, c.metadata?.uid]).sort();
    const victim = h.pods()[0]!;
    await h.cluster.rest.delete(resources.pods, { namespace: 'default', name: victim.metadata!.name! });
    await h.settle();
    assert.equal(h.pods().length, 3);
    assert.ok(h.pods().some((p) => id(p) === id(victim) && p.metadata?.uid !== victim.metadata?.uid), 'the id (and name) is reused by a new pod');
    assert.deepEqual(claims(h).map((c) => [c.metadata?.name, c.metadata?.uid]).sort(), before, 'the same PVC objects, none created');
  });

  it('disablePVCReuse: the PVC of a pod deleted by someone else is deleted and the new pod gets a new id', async () => {
    const h = new CloneSetHarness(withClaims((cs) => { cs.spec!.scaleStrategy = { disablePVCReuse: true }; }));
    await h.settle();
    const victim = h.pods()[0]!;
    await h.cluster.rest.delete(resources.pods, { namespace: 'default', name: victim.metadata!.name! });
    await h.settle();
    assert.equal(h.pods().length, 3);
    assert.ok(!h.pods().some((p) => id(p) === id(victim)));
    assert.ok(!claims(h).some((c) => id(c) === id(victim)), 'the old PVC is gone');
    assert.deepEqual(claims(h).map((c) => c.metadata?.name).sort(), h.pods().map((p) => `data-web-${id(p)}`).sort());
  });

  it('disablePVCReuse: the PVC of a terminating pod is re-owned to that pod', async () => {
    const h = new CloneSetHarness(withClaims((cs) => {
      cs.spec!.replicas = 1;
      cs.spec!.scaleStrategy = { disablePVCReuse: true };
      cs.spec!.template.metadata!.finalizers = ['example.com/keep'];
    }));
    await h.settle();
    const victim = h.pods()[0]!;
    await h.cluster.rest.delete(resources.pods, { namespace: 'default', name: victim.metadata!.name! });
    await h.settle();
    const old = h.cluster.get<V1PersistentVolumeClaim & { metadata: object }>(resources.persistentVolumeClaims, `data-web-${id(victim)}`, 'default');
    assert.deepEqual(old?.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: victim.metadata!.name, uid: victim.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
  });

  it('ReCreate: the controller deletes the old pod with its PVC; the replacement gets a new id and PVC (as upstream)', async () => {
    const h = new CloneSetHarness(withClaims((cs) => { cs.spec!.replicas = 1; }));
    await h.settle();
    const old = h.pods()[0]!;
    await h.editCloneSet((cs) => { cs.spec!.template.spec!.containers[0]!.image = 'nginx:2'; });
    await h.settle(10);
    const now = h.pods()[0]!;
    assert.notEqual(id(now), id(old));
    assert.deepEqual(claims(h).map((c) => c.metadata?.name), [`data-web-${id(now)}`]);
  });
});
