// spec/availability-guards.md §9 vectors through the routes (and the CloneSet's DELETE branch), with counts from a
// fake standing in for the main thread's paged lists.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionRequest } from '../admission/review.js';
import type { DeletionCountQuery } from '../deletion-counts.js';
import { deletionProtectionRoutes, type DeletionDeps } from './validate-deletion-protection.js';
import { validateCloneSetRoute } from './validate-cloneset.js';

const ON = { ResourcesDeletionProtection: true, DeletionProtectionForCRDCascadingGate: true };
const OFF = { ResourcesDeletionProtection: false, DeletionProtectionForCRDCascadingGate: false };
const CRD_GATE_OFF = { ResourcesDeletionProtection: true, DeletionProtectionForCRDCascadingGate: false };

const ALWAYS = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always';
const CASCADING = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading';

const labelled = (value: string | undefined, extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'x', ...(value ? { labels: { 'policy.kruise.io/delete-protection': value } } : {}) }, ...extra,
});

function review(kind: string, version: string, oldObject: unknown, operation: AdmissionRequest['operation'] = 'DELETE'): AdmissionRequest {
  return { uid: 'u', kind: { group: '', version, kind }, operation, ...(oldObject === undefined ? {} : { oldObject }) };
}

/** Counts per query kind; a string is a list error. */
function counts(c: Partial<Record<DeletionCountQuery['what'], number | string>>, asked: DeletionCountQuery[] = []) {
  return async (q: DeletionCountQuery) => {
    asked.push(q);
    const v = c[q.what] ?? 0;
    if (typeof v === 'string') throw new Error(v);
    return v;
  };
}

async function run(path: string, req: AdmissionRequest, deps: DeletionDeps) {
  const route = path === '/validate-apps-kruise-io-v1alpha1-cloneset'
    ? validateCloneSetRoute({ validate: () => [], fetchPod: async () => undefined, deletion: deps })
    : deletionProtectionRoutes(deps).find((r) => r.path === path);
  assert.ok(route, path);
  return route.handler(req);
}

const crd = (label: string) => labelled(label, { spec: { group: 'demo.io', names: { plural: 'widgets', kind: 'Widget', listKind: 'WidgetList' },
  versions: [{ name: 'v1alpha1', storage: false }, { name: 'v1', storage: true }] } });

interface Case { name: string; path: string; req: AdmissionRequest; deps: DeletionDeps; denied?: string }
const cases: Case[] = [
  { name: 'Namespace Always: denied', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Always')), deps: { gates: ON, count: counts({}) }, denied: ALWAYS },
  { name: 'Namespace Cascading with a running pod: denied', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Cascading')), deps: { gates: ON, count: counts({ 'active-pods': 1 }) }, denied: `${CASCADING} and active pods 1>0` },
  { name: 'Namespace Cascading, no pods, one Bound PVC: denied', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Cascading')), deps: { gates: ON, count: counts({ 'bound-pvcs': 1 }) }, denied: `${CASCADING} and "Bound" status pvc 1>0` },
  { name: 'Namespace Cascading, nothing left: allowed', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Cascading')), deps: { gates: ON, count: counts({}) } },
  { name: 'Namespace Cascading, pod list fails', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Cascading')), deps: { gates: ON, count: counts({ 'active-pods': 'boom' }) }, denied: 'forbidden by ResourcesProtectionDeletion for list pods error: boom' },
  { name: 'Namespace Cascading, PVC list fails', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Cascading')), deps: { gates: ON, count: counts({ 'bound-pvcs': 'nope' }) }, denied: 'forbidden by ResourcesProtectionDeletion for list pvc error: nope' },
  { name: 'CRD Always: denied', path: '/validate-customresourcedefinition', req: review('CustomResourceDefinition', 'v1', crd('Always')), deps: { gates: ON, count: counts({}) }, denied: ALWAYS },
  { name: 'CRD Cascading, both gates, one CR: denied', path: '/validate-customresourcedefinition', req: review('CustomResourceDefinition', 'v1', crd('Cascading')), deps: { gates: ON, count: counts({ 'active-crs': 1 }) }, denied: `${CASCADING} and active CRs 1>0` },
  { name: 'CRD Cascading, both gates, no CR: allowed', path: '/validate-customresourcedefinition', req: review('CustomResourceDefinition', 'v1', crd('Cascading')), deps: { gates: ON, count: counts({}) } },
  { name: 'CRD Cascading, list fails: the storage version and list kind named', path: '/validate-customresourcedefinition', req: review('CustomResourceDefinition', 'v1beta1', crd('Cascading')), deps: { gates: ON, count: counts({ 'active-crs': 'forbidden' }) }, denied: 'failed to list CRs of demo.io/v1, Kind=WidgetList: forbidden' },
  { name: 'CRD Cascading with the CRD gate off: denied even without CRs (upstream quirk §18 #16)', path: '/validate-customresourcedefinition', req: review('CustomResourceDefinition', 'v1', crd('Cascading')), deps: { gates: CRD_GATE_OFF, count: counts({}) }, denied: 'feature-gate DeletionProtectionForCRDCascadingGate is not enabled' },
  { name: 'CRD of another version (v2): allowed', path: '/validate-customresourcedefinition', req: review('CustomResourceDefinition', 'v2', crd('Always')), deps: { gates: ON } },
  { name: 'CloneSet Always: denied', path: '/validate-apps-kruise-io-v1alpha1-cloneset', req: review('CloneSet', 'v1alpha1', labelled('Always', { spec: { replicas: 2 } })), deps: { gates: ON }, denied: ALWAYS },
  { name: 'CloneSet Cascading, replicas 2: denied', path: '/validate-apps-kruise-io-v1alpha1-cloneset', req: review('CloneSet', 'v1alpha1', labelled('Cascading', { spec: { replicas: 2 } })), deps: { gates: ON }, denied: `${CASCADING} and replicas 2>0` },
  { name: 'CloneSet Cascading, replicas 0: allowed', path: '/validate-apps-kruise-io-v1alpha1-cloneset', req: review('CloneSet', 'v1alpha1', labelled('Cascading', { spec: { replicas: 0 } })), deps: { gates: ON } },
  { name: 'Deployment Cascading, replicas 0 (pods still terminating): allowed, spec only', path: '/validate-apps-deployment', req: review('Deployment', 'v1', labelled('Cascading', { spec: { replicas: 0 } })), deps: { gates: ON } },
  { name: 'ReplicaSet Cascading, replicas 3: denied', path: '/validate-apps-replicaset', req: review('ReplicaSet', 'v1', labelled('Cascading', { spec: { replicas: 3 } })), deps: { gates: ON }, denied: `${CASCADING} and replicas 3>0` },
  { name: 'StatefulSet Cascading, replicas unset: allowed', path: '/validate-apps-statefulset', req: review('StatefulSet', 'v1', labelled('Cascading', { spec: {} })), deps: { gates: ON } },
  { name: 'a builtin route asked about another kind: allowed', path: '/validate-apps-deployment', req: review('DaemonSet', 'v1', labelled('Always')), deps: { gates: ON } },
  { name: 'Service Cascading: allowed', path: '/validate-service', req: review('Service', 'v1', labelled('Cascading')), deps: { gates: ON } },
  { name: 'Service Always: denied', path: '/validate-service', req: review('Service', 'v1', labelled('Always')), deps: { gates: ON }, denied: ALWAYS },
  { name: 'Ingress Always: denied', path: '/validate-ingress', req: review('Ingress', 'v1', labelled('Always')), deps: { gates: ON }, denied: ALWAYS },
  { name: 'label in lower case (always): allowed', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('always')), deps: { gates: ON } },
  { name: 'gate off: allowed', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Always')), deps: { gates: OFF } },
  { name: 'already deleting: allowed', path: '/validate-namespace', req: review('Namespace', 'v1', { metadata: { name: 'x', deletionTimestamp: '2026-01-01T00:00:00Z', labels: { 'policy.kruise.io/delete-protection': 'Always' } } }), deps: { gates: ON } },
  { name: 'no oldObject: allowed', path: '/validate-namespace', req: review('Namespace', 'v1', undefined), deps: { gates: ON } },
  { name: 'UPDATE: not checked', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Always'), 'UPDATE'), deps: { gates: ON } },
  { name: 'Cascading without API access: refused with the list error', path: '/validate-namespace', req: review('Namespace', 'v1', labelled('Cascading')), deps: { gates: ON }, denied: 'forbidden by ResourcesProtectionDeletion for list pods error: no API access in this process' },
];

describe('deletion protection (spec/availability-guards.md §9)', () => {
  for (const tc of cases) {
    it(tc.name, async () => {
      const res = await run(tc.path, tc.req, tc.deps);
      if (tc.denied === undefined) assert.equal(res.allowed, true, JSON.stringify(res));
      else assert.deepEqual(res, { allowed: false, status: { code: 403, message: tc.denied } });
    });
  }

  it('a Cascading namespace with active pods is not asked about PVCs; the counts name the namespace and the CRD storage version', async () => {
    const asked: DeletionCountQuery[] = [];
    await run('/validate-namespace', review('Namespace', 'v1', { metadata: { name: 'team-a', labels: { 'policy.kruise.io/delete-protection': 'Cascading' } } }), { gates: ON, count: counts({ 'active-pods': 2 }, asked) });
    await run('/validate-customresourcedefinition', review('CustomResourceDefinition', 'v1', crd('Cascading')), { gates: ON, count: counts({}, asked) });
    assert.deepEqual(asked, [{ what: 'active-pods', namespace: 'team-a' }, { what: 'active-crs', group: 'demo.io', version: 'v1', plural: 'widgets' }]);
  });

  it('service and ingress routes exist only with ResourcesDeletionProtection; the others always', () => {
    assert.deepEqual(deletionProtectionRoutes({ gates: OFF }).map((r) => r.path),
      ['/validate-namespace', '/validate-customresourcedefinition', '/validate-apps-deployment', '/validate-apps-replicaset', '/validate-apps-statefulset']);
    assert.equal(deletionProtectionRoutes({ gates: ON }).length, 7);
  });

  it('a wrongly typed replicas or label map is a 400 decode error', async () => {
    await assert.rejects(run('/validate-apps-deployment', review('Deployment', 'v1', labelled('Cascading', { spec: { replicas: '3' } })), { gates: ON }), { code: 400 });
    await assert.rejects(run('/validate-namespace', review('Namespace', 'v1', { metadata: { labels: { a: 1 } } }), { gates: ON }), { code: 400 });
  });
});
