// What the routes answer for a request the executor could not answer (past its deadline, or its worker died): an
// AdmissionReview refusal with code 500 naming the deadline, a ConversionReview Failure naming it, or a bare 500
// when the envelope was never decoded. The pool's part (the clock, the terminate) is in pool.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from '../../shared/log.js';
import { buildApp } from '../app.js';
import { createMetrics } from '../metrics.js';
import { review } from '../test-helpers.js';
import type { AdmissionExecutor, Unanswered } from './executor.js';

function appAnswering(u: Unanswered) {
  const executor: AdmissionExecutor = { run: async () => u, close: async () => {} };
  const metrics = createMetrics();
  const app = buildApp({ log: silentLogger(), metrics, executor, routes: [{ path: '/mutate-pod', name: 'mutate-pod', handler: () => { throw new Error('unused'); } }] });
  return { app, metrics };
}

test('an admission review past its deadline: 200, allowed false, code 500, the deadline named; counted as errored', async () => {
  const { app, metrics } = appAnswering({ outcome: { kind: 'deadline', ms: 2000, envelope: { kind: 'admit', apiVersion: 'admission.k8s.io/v1beta1', uid: 'u-9' } } });
  const res = await app.inject({ method: 'POST', url: '/mutate-pod', payload: JSON.stringify(review({ uid: 'u-9' })), headers: { 'content-type': 'application/json' } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u-9', allowed: false,
    status: { code: 500, message: 'internal error: the admission review was not answered within its deadline of 2000 ms (ADMISSION_DEADLINE_MS); its worker was replaced' } } });
  assert.match(await metrics.registry.metrics(), /kruise_webhook_admission_requests_total\{webhook="mutate-pod",result="errored"\} 1/);
});

test('a conversion past its deadline: a Failure ConversionReview naming it', async () => {
  const { app } = appAnswering({ outcome: { kind: 'deadline', ms: 2000, envelope: { kind: 'convert', uid: 'c-1', apiVersion: 'apiextensions.k8s.io/v1', reviewKind: 'ConversionReview' } } });
  const res = await app.inject({ method: 'POST', url: '/convert', payload: '{}', headers: { 'content-type': 'application/json' } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1', response: { uid: 'c-1', convertedObjects: null,
    result: { metadata: {}, status: 'Failure', message: 'internal error: the conversion was not answered within its deadline of 2000 ms (ADMISSION_DEADLINE_MS); its worker was replaced' } } });
});

test('no envelope decoded before the deadline (or a worker that died): a bare HTTP 500', async () => {
  const { app } = appAnswering({ outcome: { kind: 'crashed', message: 'the admission worker exited (code 1)' } });
  const a = await app.inject({ method: 'POST', url: '/mutate-pod', payload: '{}', headers: { 'content-type': 'application/json' } });
  assert.equal(a.statusCode, 500);
  assert.match(a.json().message, /the admission worker exited/);
  const c = await app.inject({ method: 'POST', url: '/convert', payload: '{}', headers: { 'content-type': 'application/json' } });
  assert.equal(c.statusCode, 500);
});
