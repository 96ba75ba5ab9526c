// The admission pool's settings (webhook/pool/): WEBHOOK_WORKERS and ADMISSION_DEADLINE_MS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from './config.js';

test('the pool size is unset by default (from the CPU limit) and the deadline 2 s; both configurable and bounded', () => {
  const d = loadConfig({});
  assert.equal(d.webhookWorkers, undefined);
  assert.equal(d.admissionDeadlineMs, 2000);
  const c = loadConfig({ WEBHOOK_WORKERS: '3', ADMISSION_DEADLINE_MS: '750' });
  assert.equal(c.webhookWorkers, 3);
  assert.equal(c.admissionDeadlineMs, 750);
  assert.throws(() => loadConfig({ WEBHOOK_WORKERS: '0' }), ConfigError);
  // Not at or past the pod webhook's 10 s timeout: the deadline answer must reach the apiserver.
  assert.throws(() => loadConfig({ ADMISSION_DEADLINE_MS: '10000' }), /ADMISSION_DEADLINE_MS/);
});
