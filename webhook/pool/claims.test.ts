import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newClaimRing, offer, revoke, RING, start } from './claims.js';

test('an offered job is either started by its worker or revoked by main, never both', () => {
  const ring = newClaimRing();
  offer(ring, 1);
  offer(ring, 2);
  assert.equal(start(ring, 1), true);
  assert.equal(revoke(ring, 1), false, 'a started job cannot be taken back');
  assert.equal(revoke(ring, 2), true);
  assert.equal(start(ring, 2), false, 'a revoked job is skipped by its worker');
  assert.equal(revoke(ring, 2), false, 'revoked once');
});

test('a job never offered cannot be started; words are reused as the sequence goes round the ring', () => {
  const ring = newClaimRing();
  assert.equal(start(ring, 5), false);
  offer(ring, 5);
  assert.equal(start(ring, 5 + RING), false, 'another sequence number on the same word is not this offer');
  assert.equal(start(ring, 5), true);
  offer(ring, 5 + RING);
  assert.equal(revoke(ring, 5), false);
  assert.equal(start(ring, 5 + RING), true);
  // The tag wraps at 2^28 without colliding with the jobs around it.
  const big = 0x0fffffff;
  offer(ring, big);
  offer(ring, big + 1);
  assert.equal(start(ring, big), true);
  assert.equal(revoke(ring, big + 1), true);
});
