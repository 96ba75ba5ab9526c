import { test } from 'node:test';
import assert from 'node:assert/strict';
import { certWriterProblem } from './writer-check.js';

test('fs is refused behind a Service (more than one replica may run) and allowed in url mode', () => {
  assert.match(certWriterProblem('fs', undefined) ?? '', /one process only.*WEBHOOK_HOST/);
  assert.equal(certWriterProblem('fs', '10.0.0.7'), null);
  assert.equal(certWriterProblem('secret', undefined), null);
  assert.equal(certWriterProblem('external', undefined), null);
});
