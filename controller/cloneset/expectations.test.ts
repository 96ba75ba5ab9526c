import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXPECTATION_TIMEOUT_MS, ResourceVersionExpectations, ScaleExpectations } from './expectations.js';

describe('CloneSet expectations', () => {
  it('scale: unsatisfied until every expected name is observed, with the time waited', () => {
    let now = 1000;
    const e = new ScaleExpectations(() => now);
    e.expect('ns/a', 'a-1');
    e.expect('ns/a', 'a-2');
    now += 50;
    e.observe('ns/a', 'a-1');
    assert.equal(e.waitedMs('ns/a'), 50);
    e.observe('ns/a', 'a-2');
    assert.equal(e.waitedMs('ns/a'), undefined);
  });

  it('resourceVersion: stale while the cache is older, cleared once caught up or timed out', () => {
    let now = 0;
    const e = new ResourceVersionExpectations(() => now);
    e.expect('u1', '120');
    assert.equal(e.isStale('u1', '99'), true);
    assert.equal(e.isStale('u1', '120'), false);
    assert.equal(e.isStale('u1', '99'), false, 'cleared once seen');
    e.expect('u2', '10');
    now = EXPECTATION_TIMEOUT_MS + 1;
    assert.equal(e.isStale('u2', '9'), false, 'given up after the timeout');
  });
});
