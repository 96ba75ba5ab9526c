import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { EVENT_LOOP_DELAY_METRIC, eventLoopDelayMetrics } from './event-loop-metrics.js';

test('a 300 ms synchronous block is observed as one delay of about 300 ms', async () => {
  const registry = new Registry();
  const stop = eventLoopDelayMetrics(registry, 20);
  try {
    await new Promise((r) => setTimeout(r, 60));
    const until = Date.now() + 300;
    while (Date.now() < until) { /* blocked */ }
    await new Promise((r) => setTimeout(r, 60));
    const text = await registry.metrics();
    const bucket = (le: string) => Number(new RegExp(`^${EVENT_LOOP_DELAY_METRIC}_bucket\\{le="${le}"\\} (\\d+)`, 'm').exec(text)?.[1]);
    const count = Number(new RegExp(`^${EVENT_LOOP_DELAY_METRIC}_count (\\d+)`, 'm').exec(text)?.[1]);
    assert.ok(count >= 3, text);
    assert.equal(count - bucket('0.25'), 1, 'exactly one sample above 250 ms');
    assert.equal(count - bucket('0.5'), 0, 'and none above 500 ms');
  } finally {
    stop();
  }
});
