// The budget check (spec/availability-guards.md §3.5; V3 of §6) and the spend with optimistic concurrency.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/meta.js';
import type { PodUnavailableBudget } from '../../api/pod-unavailable-budget.js';
import { podExemption, pubExemption } from './budget.js';
import { pubSpender, type PubStore } from './spend.js';

const NOW = Date.parse('2026-01-02T03:04:05Z');
const readyPod = (o: { labels?: Record<string, string>; annotations?: Record<string, string>; deleting?: boolean; ready?: boolean } = {}): Pod => ({
  metadata: { name: 'test-pod', namespace: 'default', annotations: { 'kruise.io/related-pub': 'pub', ...o.annotations }, ...(o.labels ? { labels: o.labels } : {}),
    ...(o.deleting ? { deletionTimestamp: new Date(NOW) } : {}) },
  spec: { containers: [{ name: 'main', image: 'nginx:v1' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }], containerStatuses: [{ name: 'main', image: 'nginx:v1', imageID: 'nginx@sha256:1', ready: true, restartCount: 0 }] },
});
const pubWith = (allowed: number, rv = '10', extra: Partial<NonNullable<PodUnavailableBudget['status']>> = {}): PodUnavailableBudget => ({
  metadata: { name: 'pub', namespace: 'default', resourceVersion: rv },
  spec: { selector: { matchLabels: { app: 'x' } }, maxUnavailable: 1 },
  status: { unavailableAllowed: allowed, currentAvailable: 10, desiredAvailable: 1, totalReplicas: 10, ...extra },
});

/** An apiserver holding one PUB: a write with a stale resourceVersion is a 409; `conflicts` more are forced. */
function fakeStore(stored: PodUnavailableBudget, o: { cached?: PodUnavailableBudget; conflicts?: number } = {}) {
  let current = structuredClone(stored);
  let forced = o.conflicts ?? 0;
  const writes: PodUnavailableBudget[] = [];
  const conflict = Object.assign(new Error('Operation cannot be fulfilled on podunavailablebudgets.policy.kruise.io "pub": the object has been modified; please apply your changes to the latest version and try again'), { code: 409 });
  const store: PubStore = {
    cached: () => structuredClone(o.cached ?? stored),
    get: async () => structuredClone(current),
    updateStatus: async (p) => {
      if (forced > 0 || p.metadata?.resourceVersion !== current.metadata?.resourceVersion) { forced--; throw conflict; }
      current = { ...current, status: p.status, metadata: { ...current.metadata, resourceVersion: String(Number(current.metadata?.resourceVersion) + 1) } };
      writes.push(current);
      return structuredClone(current);
    },
  };
  const sleeps: number[] = [];
  const spender = pubSpender({ store, now: () => NOW, sleep: async (ms) => void sleeps.push(ms), isConflict: (e) => (e as { code?: number }).code === 409, isNotFound: () => false, message: (e) => (e as Error).message });
  return { spender, writes, sleeps, current: () => current };
}
const req = (operation: 'UPDATE' | 'DELETE' | 'EVICT' | 'RESIZE' = 'UPDATE', dryRun = false) => ({ namespace: 'default', pubName: 'pub', podName: 'test-pod', operation, dryRun });

describe('budget check: what never spends (V3)', () => {
  it('a ready, consistent pod must spend', () => assert.equal(podExemption(readyPod()), null));
  it('deleting, not Ready, or labelled unavailable: already unavailable', () => {
    for (const p of [readyPod({ deleting: true }), readyPod({ ready: false }), readyPod({ labels: { 'unavailable-pod.kruise.io/x': 'y' } })]) assert.equal(podExemption(p), 'pod is already unavailable');
  });
  it('a pending CloneSet in-place batch is inconsistent', () =>
    assert.equal(podExemption(readyPod({ annotations: { 'apps.kruise.io/inplace-update-state': '{"nextContainerImages":{"main":"nginx:v2"}}' } })), 'pod is already unavailable'));
  it('pub.kruise.io/no-protect: "true" opts out', () => assert.equal(podExemption(readyPod({ annotations: { 'pub.kruise.io/no-protect': 'true' } })), 'pod has no-protect annotation'));
  it('desiredAvailable 0, an unprotected operation, or a pod already recorded', () => {
    assert.equal(pubExemption({ ...pubWith(0), status: { ...pubWith(0).status!, desiredAvailable: 0 } }, 'test-pod', 'EVICT', false), 'pub desiredAvailable is 0');
    assert.equal(pubExemption({ ...pubWith(1), metadata: { name: 'pub', annotations: { 'kruise.io/pub-protect-operations': 'DELETE' } } }, 'test-pod', 'UPDATE', false), 'pub does not protect UPDATE');
    assert.equal(pubExemption(pubWith(0, '1', { unavailablePods: { 'test-pod': '2026-01-02T03:04:00Z' } }), 'test-pod', 'UPDATE', false), 'pod is already recorded by the pub');
    assert.equal(pubExemption(pubWith(0), 'test-pod', 'UPDATE', false), null);
  });
});

describe('spend', () => {
  it('UPDATE with allowed 1: allowed, unavailablePods records the pod, allowed 0', async () => {
    const f = fakeStore(pubWith(1));
    assert.deepEqual(await f.spender.spend(req('UPDATE')), { allowed: true, reason: 'budget spent' });
    assert.equal(f.current().status?.unavailableAllowed, 0);
    assert.deepEqual(f.current().status?.unavailablePods, { 'test-pod': '2026-01-02T03:04:05Z' });
    assert.equal(f.current().status?.disruptedPods, undefined);
  });
  it('DELETE, EVICT and RESIZE record in disruptedPods', async () => {
    for (const op of ['DELETE', 'EVICT', 'RESIZE'] as const) {
      const f = fakeStore(pubWith(1));
      await f.spender.spend(req(op));
      assert.deepEqual(f.current().status?.disruptedPods, { 'test-pod': '2026-01-02T03:04:05Z' }, op);
    }
  });
  it('allowed 0: denied with upstream\'s message, nothing written', async () => {
    const f = fakeStore(pubWith(0));
    assert.deepEqual(await f.spender.spend(req()), { allowed: false, message: 'podunavailablebudget.policy.kruise.io "pub" is forbidden: pub unavailable allowed is negative' });
    assert.equal(f.writes.length, 0);
  });
  it('dry run: allowed, nothing written', async () => {
    const f = fakeStore(pubWith(1));
    assert.deepEqual(await f.spender.spend(req('EVICT', true)), { allowed: true, reason: 'dry run' });
    assert.equal(f.writes.length, 0);
  });
  it('more than 2000 unconfirmed records: denied', async () => {
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p${i}`, '2026-01-02T03:04:00Z']));
    const f = fakeStore(pubWith(5, '10', { disruptedPods: many }));
    const r = await f.spender.spend(req());
    assert.equal(r.allowed, false);
    assert.match((r as { message: string }).message, /map too big - too many unavailable not confirmed by PUB controller$/);
  });
  it('a stale cache: the first write conflicts, a fresh GET 500 ms later spends from the current status', async () => {
    const f = fakeStore(pubWith(2, '11'), { cached: pubWith(2, '10') });
    assert.equal((await f.spender.spend(req())).allowed, true);
    assert.deepEqual(f.sleeps, [500]);
    assert.equal(f.current().status?.unavailableAllowed, 1);
  });
  it('a fresh GET showing the budget spent by someone else: denied', async () => {
    const f = fakeStore(pubWith(0, '11'), { cached: pubWith(1, '10') });
    assert.equal((await f.spender.spend(req())).allowed, false);
  });
  it('conflicts on all 4 attempts: denied with the last conflict', async () => {
    const f = fakeStore(pubWith(3), { conflicts: 4 });
    const r = await f.spender.spend(req());
    assert.equal(r.allowed, false);
    assert.match((r as { message: string }).message, /^Operation cannot be fulfilled on podunavailablebudgets/);
    assert.deepEqual(f.sleeps, [500, 500, 500]);
  });
  it('two pods spending one unit concurrently: one allowed, one denied (the lock and the remembered copy)', async () => {
    const f = fakeStore(pubWith(1));
    const [a, b] = await Promise.all([f.spender.spend(req()), f.spender.spend({ ...req(), podName: 'other' })]);
    assert.deepEqual([a.allowed, b.allowed], [true, false]);
    assert.equal(f.writes.length, 1);
    assert.deepEqual(f.sleeps, [], 'the second used the copy the first wrote, without a conflict');
  });
});
