import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../clock.js';
import { BucketRateLimiter, defaultControllerRateLimiter, ExponentialFailureRateLimiter, MaxOfRateLimiter } from './backoff.js';

describe('ExponentialFailureRateLimiter', () => {
  const cases = [
    { name: 'doubles from the 5 ms base on each failure', failures: 4, want: [5, 10, 20, 40] },
    { name: 'caps at 1000 s (reached on the 19th failure)', failures: 19, wantLast: [327_680, 655_360, 1_000_000] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const l = new ExponentialFailureRateLimiter();
      const got = Array.from({ length: tc.failures }, () => l.when('k'));
      if (tc.want) assert.deepEqual(got, tc.want);
      if (tc.wantLast) assert.deepEqual(got.slice(-3), tc.wantLast);
      assert.equal(l.numRequeues('k'), tc.failures);
    });
  }

  it('tracks keys independently and forget resets one key only', () => {
    const l = new ExponentialFailureRateLimiter();
    l.when('a'); l.when('a'); l.when('b');
    l.forget('a');
    assert.deepEqual([l.when('a'), l.when('b')], [5, 10]);
  });

  it('never overflows to Infinity or NaN after many failures', () => {
    const l = new ExponentialFailureRateLimiter();
    let last = 0;
    for (let i = 0; i < 2000; i++) last = l.when('k');
    assert.equal(last, 1_000_000);
  });
});

describe('BucketRateLimiter', () => {
  it('allows the burst at once, then spaces retries at 1/qps, and refills over time', async () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter(clock, 10, 3);
    assert.deepEqual([l.when(), l.when(), l.when(), l.when(), l.when()], [0, 0, 0, 100, 200]);
    await clock.advance(1000);
    // 1 s at 10 qps repays the 2-token debt and refills to the burst cap of 3.
    assert.deepEqual([l.when(), l.when(), l.when(), l.when()], [0, 0, 0, 100]);
  });
});

describe('MaxOfRateLimiter / defaultControllerRateLimiter', () => {
  it('takes the longest delay of its limiters and forgets in all of them', () => {
    const l = new MaxOfRateLimiter(new ExponentialFailureRateLimiter(5), new ExponentialFailureRateLimiter(50));
    assert.deepEqual([l.when('k'), l.when('k')], [50, 100]);
    l.forget('k');
    assert.equal(l.numRequeues('k'), 0);
  });

  it('the default is per-key exponential while the bucket has tokens', () => {
    const l = defaultControllerRateLimiter(new FakeClock());
    assert.deepEqual([l.when('a'), l.when('a'), l.when('b')], [5, 10, 5]);
  });
});
