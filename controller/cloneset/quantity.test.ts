// Review N-C1 in the controller: a stored CloneSet whose template carries an absurd quantity exponent cost ~7.5 s of
// synchronous work per reconcile (the revision hash's goNormalize expanded 10^exponent), near the lease deadline.
// Now it reconciles like any other; the revision stores what Go's decoder makes of each quantity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resources } from '../../shared/kube/resources.js';
import { CloneSetHarness, webCloneSet } from './test-harness.js';

const QUANTITIES = { limits: { cpu: '1e-100000000', memory: '1e30000000' }, requests: { cpu: '1e-9999999999', memory: '1.5e-2147483648' } };

test('a CloneSet with absurd quantity exponents reconciles at once and its revision holds Go\'s values', { timeout: 30_000 }, async () => {
  const h = new CloneSetHarness(webCloneSet((cs) => { cs.spec!.template!.spec!.containers[0]!.resources = structuredClone(QUANTITIES); }));
  await h.settle(3);
  assert.equal(h.pods().length, 3);
  const revisions = h.cluster.informers.cache<{ data: any; metadata: { name: string } }>(resources.controllerRevisions).list();
  assert.equal(revisions.length, 1);
  // Go's ParseQuantity → Marshal of each (k8s.io/apimachinery v0.32.10; the requests.cpu wraps to 1e-1410065407).
  // Pods are built from the decoded template, as upstream's are.
  const decoded = { limits: { cpu: '1e-9', memory: '1e30000000' }, requests: { cpu: '1e-9', memory: '150e2147483646' } };
  assert.deepEqual(revisions[0]!.data.spec.template.spec.containers[0].resources, decoded);
  for (const p of h.pods()) assert.deepEqual(p.spec?.containers[0]?.resources, decoded);
  const status = h.cloneSet().status;
  assert.equal(status?.replicas, 3);
  assert.equal(status?.updateRevision, revisions[0]!.metadata.name);
});
