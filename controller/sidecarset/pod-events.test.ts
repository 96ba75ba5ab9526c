import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { kubelet, makePod, makeSet, NOW, withImage } from './fixtures.js';
import { podChangeEnqueues, relevantSets, summarize } from './pod-events.js';
import { upgradePod } from './pod-upgrade.js';

const set = makeSet();
const canary = makeSet({ name: 'canary', strategy: { selector: { matchLabels: { canary: 'true' } } } });
const frozen = makeSet({ name: 'frozen', strategy: { type: 'NotUpdate' } });
const base = () => kubelet(makePod('p', [set]));
const bump = (pod: Pod, f: (p: Pod) => void = () => {}) => {
  const p = structuredClone(pod);
  p.metadata!.resourceVersion = String(Number(p.metadata!.resourceVersion) + 1);
  f(p);
  return p;
};
const run = (before: Pod | undefined, after: Pod, sets = [set]) =>
  podChangeEnqueues(before && summarize(before, sets), summarize(after, sets), sets);

test('a new pod concerns every SidecarSet it is injected with', () => assert.deepEqual(run(undefined, base()), [{ set: 'scs', afterMs: 0 }]));
test('the same resourceVersion is no change', () => assert.deepEqual(run(base(), base()), []));
test('readiness flips enqueue at once', () => assert.deepEqual(run(base(), bump(kubelet(base(), { ready: false }))), [{ set: 'scs', afterMs: 0 }]));
test('deletion starting enqueues at once', () => assert.deepEqual(run(base(), bump(base(), (p) => (p.metadata!.deletionTimestamp = NOW))), [{ set: 'scs', afterMs: 0 }]));
test('consistency flipping enqueues after 5 s', () => {
  const updated = bump(base(), (p) => upgradePod(withImage(set, 'busybox:2.0'), p, { now: NOW, injectedList: () => 'scs' }));
  assert.deepEqual(run(base(), updated), [{ set: 'scs', afterMs: 5_000 }]);
});
test('label changes matter only to SidecarSets updating by selector', () => {
  const relabelled = bump(base(), (p) => (p.metadata!.labels!.canary = 'true'));
  assert.deepEqual(run(base(), relabelled, [set, canary]), [{ set: 'canary', afterMs: 0 }]);
});
test('NotUpdate SidecarSets ignore pod updates', () => assert.deepEqual(run(base(), bump(kubelet(base(), { ready: false })), [frozen]), []));
test('other updates (e.g. annotations) do not enqueue', () => assert.deepEqual(run(base(), bump(base(), (p) => (p.metadata!.annotations!.x = 'y'))), []));

test('relevant SidecarSets: named in the injected list, existing, with their containers in the pod', () => {
  const sets = new Map([['scs', set], ['hot', makeSet({ name: 'hot', hot: true })]]);
  assert.deepEqual(relevantSets(base(), ['scs', 'hot', 'gone'], (n) => sets.get(n)).map((s) => s.metadata?.name), ['scs']);
});
