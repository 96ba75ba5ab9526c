import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCloneSet } from './defaults.js';
import { T0 } from './fixtures.js';
import { newPod } from './new-pod.js';
import { newRevision } from './revision.js';

describe('created pods (spec §2.2, §6 V2)', () => {
  it('the seed pod busybox-nd5bp', () => {
    const cs = defaultCloneSet({ metadata: { name: 'busybox', namespace: 'default', uid: 'u1' }, spec: { replicas: 1, selector: { matchLabels: { app: 'hotupgrade' } },
      template: { metadata: { labels: { app: 'hotupgrade' } }, spec: { containers: [{ name: 'busybox', image: 'openkruise/hotupgrade-sample:busybox' }] } } } });
    const pod = newPod(cs, newRevision(cs, 1, 0), 'nd5bp', T0);
    assert.equal(pod.metadata?.name, 'busybox-nd5bp');
    assert.equal(pod.metadata?.generateName, 'busybox-');
    assert.deepEqual(pod.metadata?.labels, {
      app: 'hotupgrade', 'apps.kruise.io/cloneset-instance-id': 'nd5bp', 'controller-revision-hash': 'busybox-69478977cd',
      'pod-template-hash': '69478977cd', 'lifecycle.apps.kruise.io/state': 'PreparingNormal',
    });
    assert.deepEqual(pod.metadata?.annotations, { 'lifecycle.apps.kruise.io/timestamp': '2025-06-01T12:00:00Z' });
    assert.deepEqual(pod.metadata?.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'busybox', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(pod.spec, { ...cs.spec!.template.spec, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] });
  });
});
