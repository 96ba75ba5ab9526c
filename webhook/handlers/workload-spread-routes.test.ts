// The WorkloadSpread steps through the production handler table: /mutate-pod places a CloneSet pod (the async path
// of the route) before SidecarSet injection, /validate-pod records its deletion, and the WorkloadSpread webhook
// answers 400 with upstream's aggregate and 403 with its gate off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fjp from 'fast-json-patch';
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';
import { GATE_DEFAULTS } from '../../shared/feature-gates.js';
import { admissionCaches, staticCache } from '../caches.js';
import { decodePatch, review, testApp } from '../test-helpers.js';
import { makeRoutes } from './index.js';

const spread: WorkloadSpread = {
  metadata: { name: 'ws', namespace: 'default', uid: 'ws-uid', resourceVersion: '3' },
  spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' }, subsets: [{ name: 'a', maxReplicas: 1, patch: { metadata: { labels: { zone: 'a' } } } }, { name: 'b' }] },
};
function routesWith(gates: Record<keyof typeof GATE_DEFAULTS, boolean> = { ...GATE_DEFAULTS }) {
  const writes: WorkloadSpread[] = [];
  const caches = admissionCaches(
    { sidecarSets: staticCache([]), namespaces: staticCache([{ metadata: { name: 'default', labels: {} } }]), revisions: staticCache([]), configMaps: staticCache([]), workloadSpreads: staticCache([spread as never]) },
    { fetchPod: async () => undefined, fetchNode: async () => undefined, fetchWorkload: async () => undefined, fetchWorkloadSpread: async () => spread,
      updateWorkloadSpreadStatus: async (ws) => { writes.push(ws); return ws; } },
  );
  return { routes: makeRoutes({ caches, gates, now: () => new Date('2026-01-02T03:04:05Z'), random: () => 0.5 }), writes };
}
const podKind = { kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default' };
const pod = { metadata: { name: 'cs-abcde', namespace: 'default', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'cs-uid', controller: true }] }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

test('/mutate-pod places the pod in subset a and records it', async () => {
  const { routes, writes } = routesWith();
  const { app } = testApp(routes);
  const res = (await app.inject({ method: 'POST', url: '/mutate-pod', payload: review({ ...podKind, object: pod }) })).json().response;
  assert.equal(res.allowed, true);
  const out = fjp.applyPatch(structuredClone(pod), decodePatch(res.patch)).newDocument as any;
  assert.equal(out.metadata.labels.zone, 'a');
  assert.equal(out.metadata.annotations['apps.kruise.io/matched-workloadspread'], '{"name":"ws","subset":"a"}');
  assert.deepEqual(out.spec.affinity, { nodeAffinity: {} });
  assert.deepEqual(writes[0]?.status?.versionedSubsetStatuses?.versionIgnored?.[0], { name: 'a', replicas: 0, missingReplicas: 0, creatingPods: { 'cs-abcde': '2026-01-02T03:04:05Z' } });
});

test('/mutate-pod leaves pods alone with the WorkloadSpread gate off', async () => {
  const { routes, writes } = routesWith({ ...GATE_DEFAULTS, WorkloadSpread: false });
  const { app } = testApp(routes);
  const res = (await app.inject({ method: 'POST', url: '/mutate-pod', payload: review({ ...podKind, object: pod }) })).json().response;
  const out = (res.patch ? fjp.applyPatch(structuredClone(pod), decodePatch(res.patch)).newDocument : pod) as any;
  assert.equal(out.metadata.annotations?.['apps.kruise.io/matched-workloadspread'], undefined, 'only the KruisePodReady gate is added');
  assert.equal(writes.length, 0);
});

test('/validate-pod records a placed pod\'s DELETE and allows it', async () => {
  const { routes, writes } = routesWith();
  const { app } = testApp(routes);
  const placed = { ...pod, metadata: { ...pod.metadata, annotations: { 'apps.kruise.io/matched-workloadspread': '{"name":"ws","subset":"a"}' } } };
  const res = (await app.inject({ method: 'POST', url: '/validate-pod', payload: review({ ...podKind, operation: 'DELETE', name: 'cs-abcde', oldObject: placed }) })).json().response;
  assert.equal(res.allowed, true);
  assert.deepEqual(writes[0]?.status?.versionedSubsetStatuses?.versionIgnored?.[0]?.deletingPods, { 'cs-abcde': '2026-01-02T03:04:05Z' });
});

test('the WorkloadSpread webhook: errors aggregate as a 400, the gate off is a 403', async () => {
  const kind = { kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'WorkloadSpread' }, namespace: 'default' };
  const bad = { metadata: { name: 'x', namespace: 'default' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: '' }, subsets: [{ name: '' }] } };
  const { app } = testApp(routesWith().routes);
  const res = (await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-v1alpha1-workloadspread', payload: review({ ...kind, object: bad }) })).json().response;
  assert.equal(res.status.code, 400);
  assert.equal(res.status.message, '[spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:"apps/v1", Kind:"Deployment", Name:""}: empty TargetReference is not valid for WorkloadSpread., spec.subsets[0].name: Invalid value: ""]');
  const off = testApp(routesWith({ ...GATE_DEFAULTS, WorkloadSpread: false }).routes).app;
  const denied = (await off.inject({ method: 'POST', url: '/validate-apps-kruise-io-v1alpha1-workloadspread', payload: review({ ...kind, object: bad }) })).json().response;
  assert.deepEqual([denied.status.code, denied.status.message], [403, 'feature-gate WorkloadSpread is not enabled']);
});
