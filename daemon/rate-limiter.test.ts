import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemonRateLimiter } from './rate-limiter.js';

test('per-key backoff doubles from 500 ms to a 50 s cap, plus jitter, and forget resets it', () => {
  const noJitter = daemonRateLimiter(() => 0);
  const delays = Array.from({ length: 9 }, () => noJitter.when('k'));
  assert.deepEqual(delays, [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 50_000, 50_000]);
  assert.equal(noJitter.when('other'), 500, 'keys back off independently');
  noJitter.forget('k');
  assert.equal(noJitter.numRequeues('k'), 0);
  assert.equal(daemonRateLimiter(() => 0.999).when('k'), 500 + 4_995);
});
