import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kubelet, makePod, makeSet, NOW, withImage } from './fixtures.js';
import { upgradePod } from './pod-upgrade.js';
import { computeStatus, statusChanged } from './status.js';

const v1 = makeSet();
const v2 = withImage(v1, 'busybox:2.0');

test('matched, updated, ready and updated-ready counts', () => {
  const ready = kubelet(makePod('a', [v1]));
  const notReady = kubelet(makePod('b', [v1]), { ready: false });
  const updating = kubelet(makePod('c', [v1]));
  upgradePod(v2, updating, { now: NOW, injectedList: () => 'scs' });
  const updated = kubelet(structuredClone(updating));
  const status = computeStatus(v2, [ready, notReady, updating, updated], 'scs-1', 0);
  assert.deepEqual(status, { observedGeneration: 2, matchedPods: 4, updatedPods: 2, readyPods: 2, updatedReadyPods: 1, latestRevision: 'scs-1', collisionCount: 0 });
});

test('status is written only when something differs or the generation is newer', () => {
  const s = computeStatus(v1, [], 'scs-1', 0);
  assert.equal(statusChanged(s, s), false);
  assert.equal(statusChanged(undefined, s), true);
  assert.equal(statusChanged({ ...s, readyPods: 1 }, s), true);
  assert.equal(statusChanged({ ...s, collisionCount: undefined }, s), true);
  assert.equal(statusChanged({ ...s, observedGeneration: 5 }, s), false, 'an older generation never goes back');
});
