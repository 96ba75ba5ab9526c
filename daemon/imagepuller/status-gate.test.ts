import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NodeImageStatus } from '../../shared/api/node-image.js';
import { StatusWriteGate } from './status-gate.js';

const status = (desired: number): NodeImageStatus => ({ desired, succeeded: 0, failed: 0, pulling: 0, waiting: desired });

describe('StatusWriteGate', () => {
  test('an unchanged status is not rewritten until the 12 h (+ jitter) refresh', () => {
    let now = 0;
    const gate = new StatusWriteGate(() => now, () => 0.5);
    assert.equal(gate.decide(status(1)), 'write');
    gate.written(status(1));
    now = 12 * 3_600_000 + 29 * 60_000;
    assert.equal(gate.decide(status(1)), 'unchanged');
    now = 12 * 3_600_000 + 30 * 60_000;
    assert.equal(gate.decide(status(1)), 'write');
  });

  test('writes are limited to a burst of 5, then refill at 0.5 per second', () => {
    let now = 0;
    const gate = new StatusWriteGate(() => now, () => 0);
    const decisions = [1, 2, 3, 4, 5, 6].map((n) => { const d = gate.decide(status(n)); if (d === 'write') gate.written(status(n)); return d; });
    assert.deepEqual(decisions, ['write', 'write', 'write', 'write', 'write', 'limited']);
    now = 1_000;
    assert.equal(gate.decide(status(7)), 'limited');
    now = 2_000;
    assert.equal(gate.decide(status(7)), 'write');
  });
});
