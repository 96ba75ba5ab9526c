import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet } from '../../api/cloneset.js';
import { defaultCloneSet } from './defaults.js';
import { pod, T0 } from './fixtures.js';
import { newPod } from './new-pod.js';
import { newRevision, volumeClaimTemplatesHash } from './revision.js';
import { claimsFor, claimsOfPod, ownerRefsToPod, planClaimCleanup, reusableIds, type Claim } from './volume-claims.js';

const web = (): CloneSet => defaultCloneSet({
  metadata: { name: 'web', namespace: 'ns', uid: 'cs-uid' },
  spec: {
    replicas: 2, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', volumeMounts: [{ name: 'data', mountPath: '/data' }] }], volumes: [{ name: 'data', emptyDir: {} }, { name: 'cfg', emptyDir: {} }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'db' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
});

const claim = (name: string, id: string): Claim => ({ metadata: { name, namespace: 'ns', uid: `u-${name}`, labels: { 'apps.kruise.io/cloneset-instance-id': id }, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'cs-uid', controller: true }] } });
const withId = (id: string) => pod({ name: `web-${id}`, labels: { 'apps.kruise.io/cloneset-instance-id': id } });

describe('PVCs from volumeClaimTemplates (spec §2.5)', () => {
  it('one claim per template per pod: <template>-<cloneset>-<id>, template + selector + instance-id labels, the CloneSet as controller, no status', () => {
    const cs = web();
    assert.equal(cs.spec!.volumeClaimTemplates![0]!.status?.phase, 'Pending', 'defaulting writes the phase');
    assert.deepEqual(claimsFor(cs, 'nd5bp'), [{
      apiVersion: 'v1', kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'data-web-nd5bp', namespace: 'ns', labels: { tier: 'db', app: 'web', 'apps.kruise.io/cloneset-instance-id': 'nd5bp' },
        ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'cs-uid', controller: true, blockOwnerDeletion: true }],
      },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }]);
  });

  it('the created pod mounts the claim through a volume named after the template, replacing a template volume of that name', () => {
    const cs = web();
    const p = newPod(cs, newRevision(cs, 1, 0), 'nd5bp', T0);
    assert.deepEqual(p.spec?.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-nd5bp' } }, { name: 'cfg', emptyDir: {} }]);
  });

  it('the revision records a VCT hash, "" without templates, and the template data (hence the revision name) ignores VCTs', () => {
    const cs = web();
    const bare = web();
    delete bare.spec!.volumeClaimTemplates;
    assert.notEqual(volumeClaimTemplatesHash(cs), '');
    assert.equal(volumeClaimTemplatesHash(bare), '');
    assert.equal(newRevision(cs, 1, 0).metadata.name, newRevision(bare, 1, 0).metadata.name);
  });

  it('ids of claims whose pod is gone are reused first, sorted; ids of active pods are not', () => {
    const claims = [claim('data-web-zzzzz', 'zzzzz'), claim('data-web-bbbbb', 'bbbbb'), claim('data-web-ccccc', 'ccccc')];
    assert.deepEqual(reusableIds([withId('ccccc')], claims), ['bbbbb', 'zzzzz']);
  });

  it('a pod deleted by the controller takes the claims of its instance id', () => {
    const claims = [claim('data-web-bbbbb', 'bbbbb'), claim('logs-web-bbbbb', 'bbbbb'), claim('data-web-ccccc', 'ccccc')];
    assert.deepEqual(claimsOfPod(withId('bbbbb'), claims).map((c) => c.metadata?.name), ['data-web-bbbbb', 'logs-web-bbbbb']);
    assert.deepEqual(claimsOfPod(pod(), claims), [], 'a pod without an instance id has no claims');
  });

  it('disablePVCReuse: claims of active pods kept, of inactive pods re-owned to the pod, of no pod deleted', () => {
    const claims = [claim('data-web-aaaaa', 'aaaaa'), claim('data-web-bbbbb', 'bbbbb'), claim('data-web-ccccc', 'ccccc')];
    const gone = withId('bbbbb');
    const plan = planClaimCleanup([withId('aaaaa')], [gone], claims);
    assert.deepEqual(plan.kept.map((c) => c.metadata?.name), ['data-web-aaaaa']);
    assert.deepEqual(plan.reown.map((r) => [r.claim.metadata?.name, r.pod.metadata?.name]), [['data-web-bbbbb', 'web-bbbbb']]);
    assert.deepEqual(plan.remove.map((c) => c.metadata?.name), ['data-web-ccccc']);
    assert.deepEqual(ownerRefsToPod(claims[1]!, web(), gone), [{ apiVersion: 'v1', kind: 'Pod', name: 'web-bbbbb', uid: 'uid-web-bbbbb', controller: true, blockOwnerDeletion: true }]);
  });
});
