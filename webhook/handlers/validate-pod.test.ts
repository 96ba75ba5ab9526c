// /validate-pod (spec/availability-guards.md §3.2-§3.5, V2 of §6) and the PUB annotation of /mutate-pod (§3.6).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../shared/api/meta.js';
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import { pubSpender } from '../../shared/domain/pub/spend.js';
import type { AdmissionRequest } from '../admission/review.js';
import type { AdmissionResult } from '../admission/response.js';
import { withRelatedPub } from './related-pub.js';
import { validatePodRoute, type ValidatePodDeps } from './validate-pod.js';
import { validatePubRoute, PUB_GATES_OFF } from './validate-pub.js';
import { validatePub } from '../../shared/domain/pub/validate.js';

const NOW = Date.parse('2026-01-02T03:04:05Z');
const pod = (image = 'nginx:v1', o: { name?: string; related?: boolean; ready?: boolean } = {}): Pod => ({
  metadata: { name: o.name ?? 'test-pod-0', namespace: 'default', labels: { app: 'pub-controller' }, ...(o.related === false ? {} : { annotations: { 'kruise.io/related-pub': 'pub-test' } }) },
  spec: { containers: [{ name: 'main', image }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }], containerStatuses: [{ name: 'main', image: 'nginx:v1', imageID: 'docker.io/library/nginx@sha256:a', ready: true, restartCount: 0 }] },
});
const pubWith = (allowed: number, annotations?: Record<string, string>, desired = 7): PodUnavailableBudget => ({
  metadata: { name: 'pub-test', namespace: 'default', resourceVersion: '5', ...(annotations ? { annotations } : {}) },
  spec: { selector: { matchLabels: { app: 'pub-controller' } }, maxUnavailable: '30%' },
  status: { unavailableAllowed: allowed, currentAvailable: 7, desiredAvailable: desired, totalReplicas: 10, disruptedPods: { 'test-pod-9': '2026-01-02T03:04:00Z' }, unavailablePods: { 'test-pod-8': '2026-01-02T03:04:00Z' } },
});

function setup(pub: PodUnavailableBudget, gates: Partial<ValidatePodDeps['gates']> = {}) {
  let current = structuredClone(pub);
  const spender = pubSpender({
    store: {
      cached: () => structuredClone(current), get: async () => structuredClone(current),
      updateStatus: async (p) => { current = { ...p, metadata: { ...p.metadata, resourceVersion: String(Number(p.metadata?.resourceVersion) + 1) } }; return current; },
    },
    now: () => NOW, sleep: async () => {}, isConflict: () => false, isNotFound: () => false, message: String,
  });
  const route = validatePodRoute({
    gates: { podWebhook: true, deleteGate: true, updateGate: true, inPlacePodVerticalScaling: false, ...gates },
    pub: () => current, fetchPod: async (_ns, name) => (name === 'test-pod-0' ? pod() : undefined), spendPub: spender.spend,
  });
  const review = (r: Partial<AdmissionRequest>) => route.handler({ uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, namespace: 'default', operation: 'UPDATE', ...r } as AdmissionRequest) as Promise<AdmissionResult>;
  return { review, status: () => current.status! };
}

describe('/validate-pod (V2)', () => {
  it('UPDATE of the image with allowed 1: allowed, unavailablePods += pod, allowed 0', async () => {
    const t = setup(pubWith(1));
    assert.equal((await t.review({ object: pod('nginx:1.18'), oldObject: pod() })).allowed, true);
    assert.equal(t.status().unavailableAllowed, 0);
    assert.equal(t.status().unavailablePods?.['test-pod-0'], '2026-01-02T03:04:05Z');
  });
  it('the same with allowed 0: 403 with upstream\'s message', async () => {
    const r = await setup(pubWith(0)).review({ object: pod('nginx:1.18'), oldObject: pod() });
    assert.deepEqual(r, { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'podunavailablebudget.policy.kruise.io "pub-test" is forbidden: pub unavailable allowed is negative' } });
  });
  const allowedUnchanged: [string, Partial<AdmissionRequest>, PodUnavailableBudget?][] = [
    ['old pod not Ready', { object: pod('nginx:1.18'), oldObject: pod('nginx:v1', { ready: false }) }],
    ['labels only', { object: { ...pod(), metadata: { ...pod().metadata, labels: { app: 'pub-controller', x: 'y' } } }, oldObject: pod() }],
    ['a pod without kruise.io/related-pub', { object: pod('nginx:1.18', { related: false }), oldObject: pod('nginx:v1', { related: false }) }],
    ['a pod already recorded (test-pod-8)', { object: pod('nginx:1.18', { name: 'test-pod-8' }), oldObject: pod('nginx:v1', { name: 'test-pod-8' }) }],
    ['PUB protecting DELETE only', { object: pod('nginx:1.18'), oldObject: pod() }, pubWith(0, { 'kruise.io/pub-protect-operations': 'DELETE' })],
    ['CREATE of a pod', { operation: 'CREATE', object: pod() }],
    ['EVICT with desired 0', { operation: 'CREATE', subResource: 'eviction', name: 'test-pod-0', object: {} }, pubWith(0, undefined, 0)],
    ['DELETE with a subresource', { operation: 'DELETE', subResource: 'status', oldObject: pod() }],
    ['DELETE when the PUB protects UPDATE only', { operation: 'DELETE', oldObject: pod() }, pubWith(0, { 'kruise.io/pub-protect-operations': 'UPDATE' })],
    ['DELETE without oldObject', { operation: 'DELETE' }],
  ];
  for (const [name, r, pub] of allowedUnchanged) {
    it(`${name}: allowed, nothing spent`, async () => {
      const t = setup(pub ?? pubWith(0));
      const before = structuredClone(t.status());
      assert.equal((await t.review(r)).allowed, true);
      assert.deepEqual(t.status(), before);
    });
  }
  it('EVICT: denied with allowed 0; allowed and recorded with 1; a dry run spends nothing', async () => {
    const evict = (dryRun?: string[]) => ({ operation: 'CREATE' as const, subResource: 'eviction', name: 'test-pod-0', object: { deleteOptions: dryRun ? { dryRun } : {} } });
    assert.equal((await setup(pubWith(0)).review(evict())).allowed, false);
    const t = setup(pubWith(1));
    assert.equal((await t.review(evict())).allowed, true);
    assert.deepEqual([t.status().unavailableAllowed, t.status().disruptedPods?.['test-pod-0']], [0, '2026-01-02T03:04:05Z']);
    const d = setup(pubWith(1));
    assert.equal((await d.review(evict(['All']))).allowed, true);
    assert.equal(d.status().unavailableAllowed, 1);
  });
  it('the eviction of a pod that does not exist: 400', async () => {
    await assert.rejects(setup(pubWith(1)).review({ operation: 'CREATE', subResource: 'eviction', name: 'gone', object: {} }), (e: { code?: number }) => e.code === 400);
  });
  it('DELETE: denied with allowed 0, recorded with 1, not spent on a dry run', async () => {
    assert.equal((await setup(pubWith(0)).review({ operation: 'DELETE', oldObject: pod() })).allowed, false);
    const t = setup(pubWith(1));
    assert.equal((await t.review({ operation: 'DELETE', oldObject: pod() })).allowed, true);
    assert.equal(t.status().disruptedPods?.['test-pod-0'], '2026-01-02T03:04:05Z');
    const d = setup(pubWith(1));
    assert.equal((await d.review({ operation: 'DELETE', oldObject: pod(), dryRun: true })).allowed, true);
    assert.equal(d.status().unavailableAllowed, 1);
  });
  it('gates: UPDATE unchecked without the UpdateGate, DELETE unchecked without the DeleteGate', async () => {
    assert.equal((await setup(pubWith(0), { updateGate: false }).review({ object: pod('nginx:1.18'), oldObject: pod() })).allowed, true);
    assert.equal((await setup(pubWith(0), { deleteGate: false }).review({ operation: 'DELETE', oldObject: pod() })).allowed, true);
  });
  it('pods/resize (beyond upstream) is checked as RESIZE and recorded in disruptedPods', async () => {
    const sized = (cpu: string): Pod => ({ ...pod(), spec: { containers: [{ name: 'main', image: 'nginx:v1', resources: { requests: { cpu }, limits: { cpu: '2' } } }] } });
    assert.equal((await setup(pubWith(0)).review({ subResource: 'resize', object: sized('2'), oldObject: sized('1') })).allowed, false);
    const t = setup(pubWith(1));
    assert.equal((await t.review({ subResource: 'resize', object: sized('2'), oldObject: sized('1') })).allowed, true);
    assert.equal(t.status().disruptedPods?.['test-pod-0'], '2026-01-02T03:04:05Z');
  });
});

describe('/validate-policy-kruise-io-podunavailablebudget', () => {
  const route = (enabled: boolean, pubs: PodUnavailableBudget[] = []) => validatePubRoute({ enabled, validate: validatePub, pubs: () => pubs });
  const req = (object: unknown): AdmissionRequest => ({ uid: 'u', kind: { group: 'policy.kruise.io', version: 'v1alpha1', kind: 'PodUnavailableBudget' }, namespace: 'default', operation: 'CREATE', object });
  it('both gates off: 400', () => assert.throws(() => route(false).handler(req(pubWith(1))), { message: PUB_GATES_OFF }));
  it('a valid PUB is allowed; identical errors collapse into one text, answered 400', async () => {
    assert.equal((await route(true).handler(req(pubWith(1)))).allowed, true);
    const bad = { metadata: { name: 'x', namespace: 'default', annotations: { 'kruise.io/pub-protect-operations': 'a,b' } }, spec: { selector: { matchLabels: { a: 'b' } }, maxUnavailable: 1 } };
    assert.deepEqual(await route(true).handler(req(bad)), { allowed: false, status: { code: 400, message: 'metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid' } });
  });
});

describe('related-pub on pod creation', () => {
  const pubs = [
    { metadata: { name: 'by-selector', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 } },
    { metadata: { name: 'by-ref', namespace: 'default' }, spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' }, maxUnavailable: 1 } },
    { metadata: { name: 'by-deployment', namespace: 'default' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dep' }, maxUnavailable: 1 } },
  ] as PodUnavailableBudget[];
  const created = (labels: Record<string, string>, owner?: { apiVersion: string; kind: string; name: string }): Pod =>
    ({ metadata: { name: 'p', labels, ...(owner ? { ownerReferences: [{ ...owner, uid: 'u', controller: true }] } : {}) }, spec: { containers: [] } });
  const related = async (p: Pod) => (await withRelatedPub(p, 'default', { pubs: () => pubs, replicaSetOwner: async (_ns, rs) => (rs === 'dep-abc' ? { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dep' } : undefined) })).metadata?.annotations?.['kruise.io/related-pub'];
  it('selector matched → annotated', async () => assert.equal(await related(created({ app: 'web' })), 'by-selector'));
  it('selector not matched → none', async () => assert.equal(await related(created({ app: 'other' })), undefined));
  it('a CloneSet pod matched by a targetRef PUB', async () => assert.equal(await related(created({}, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' })), 'by-ref'));
  it('another CloneSet → none', async () => assert.equal(await related(created({}, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'other' })), undefined));
  it('a ReplicaSet pod resolves to its Deployment', async () => assert.equal(await related(created({}, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'dep-abc' })), 'by-deployment'));
});
