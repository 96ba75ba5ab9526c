import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImagePullJobStatus } from '../../shared/api/image-pull-job.js';
import { PROGRESS_WRITE_INTERVAL_MS as I, progressWriteDelay } from './status-pacing.js';

const T = 1_000_000;
const running = (succeeded: number, extra: Partial<ImagePullJobStatus> = {}): ImagePullJobStatus =>
  ({ startTime: '2025-01-01T00:00:00Z', desired: 10, active: 10 - succeeded, succeeded, failed: 0, ...extra });

test('progress right after a write waits out the rest of the interval', () => {
  assert.equal(progressWriteDelay(running(1), running(2), T, T + 300), I - 300);
  assert.equal(progressWriteDelay(running(1), running(2), T, T + I), 0, 'due exactly at the interval');
  assert.equal(progressWriteDelay(running(1), running(2), T, T + 5 * I), 0);
});

test('written at once: the first status, after a restart, a changed target count, the completion', () => {
  assert.equal(progressWriteDelay(undefined, running(0), T, T + 1), 0, 'no status yet');
  assert.equal(progressWriteDelay({ desired: 0, active: 0, succeeded: 0, failed: 0 }, running(0), T, T + 1), 0, 'no startTime yet');
  assert.equal(progressWriteDelay(running(1), running(2), undefined, T), 0, 'this process has not written it yet');
  assert.equal(progressWriteDelay(running(1), running(1, { desired: 11 }), T, T + 1), 0);
  assert.equal(progressWriteDelay(running(9), running(10, { completionTime: '2025-01-01T00:01:00Z' }), T, T + 1), 0);
});
