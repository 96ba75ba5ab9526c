import { test } from 'node:test';
import assert from 'node:assert/strict';
import fjp from 'fast-json-patch';
import { pino } from 'pino';
import { AdmissionDeniedError } from '../shared/errors.js';
import { allowed, denied } from './admission/response.js';
import type { WebhookRoute } from './admission/route.js';
import { mutateByDiff } from './handlers/common.js';
import { decodePatch, review, testApp } from './test-helpers.js';
import { silentLogger } from '../shared/log.js';
import { buildApp } from './app.js';
import { buildHealthApp } from './health.js';
import { createMetrics } from './metrics.js';

const routes: WebhookRoute[] = [
  { path: '/allow', name: 'allow', handler: () => allowed() },
  { path: '/label', name: 'label', handler: (req) => mutateByDiff<any>(req, (o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 'b' } } })) },
  { path: '/noop', name: 'noop', handler: (req) => mutateByDiff<any>(req, (o) => o) },
  { path: '/deny', name: 'deny', handler: () => denied('nope') },
  { path: '/throw-400', name: 't400', handler: () => { throw new AdmissionDeniedError('bad input', 400); } },
  { path: '/throw-403', name: 't403', handler: () => { throw new AdmissionDeniedError('forbidden thing'); } },
  { path: '/throw-422', name: 't422', handler: () => { throw new AdmissionDeniedError('invalid thing', 422); } },
  { path: '/throw', name: 'throw', handler: () => { throw new TypeError('cannot read x of undefined'); } },
  { path: '/reject-async', name: 'reject', handler: async () => { throw 'a string'; } },
  { path: '/garbage', name: 'garbage', handler: () => 42 as any },
];

async function post(path: string, payload: unknown) {
  const { app } = testApp(routes);
  const res = await app.inject({ method: 'POST', url: path, payload: payload as object });
  return { status: res.statusCode, body: res.json() as any };
}

test('a v1 review is answered with the same apiVersion, kind and uid', async () => {
  const r = await post('/allow', review({ uid: 'abc' }));
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'abc', allowed: true, status: { code: 200 } } });
});

test('a v1beta1 review is answered as v1beta1', async () => {
  const r = await post('/allow', review({ apiVersion: 'admission.k8s.io/v1beta1', uid: 'b1' }));
  assert.equal(r.body.apiVersion, 'admission.k8s.io/v1beta1');
  assert.equal(r.body.response.uid, 'b1');
});

test('a mutation is returned as a base64 JSON Patch that reproduces the mutated object', async () => {
  const obj = { metadata: { name: 'p', x: 1 }, spec: { unknownField: true } };
  const r = await post('/label', review({ object: obj }));
  assert.equal(r.body.response.allowed, true);
  assert.equal(r.body.response.patchType, 'JSONPatch');
  const patched = fjp.applyPatch(structuredClone(obj), decodePatch(r.body.response.patch)).newDocument;
  assert.deepEqual(patched, { metadata: { name: 'p', x: 1, labels: { a: 'b' } }, spec: { unknownField: true } });
});

test('a mutation that changes nothing carries no patch at all', async () => {
  const r = await post('/noop', review());
  assert.deepEqual(r.body.response, { uid: 'uid-1', allowed: true, status: { code: 200 } });
});

const refusals: { name: string; path: string; code: number; message: RegExp; reason?: string }[] = [
  { name: 'a denied() result is 403 Forbidden', path: '/deny', code: 403, message: /^nope$/, reason: 'Forbidden' },
  { name: 'a thrown 400 AdmissionDeniedError keeps code 400', path: '/throw-400', code: 400, message: /bad input/ },
  { name: 'a thrown 403 AdmissionDeniedError is Forbidden', path: '/throw-403', code: 403, message: /forbidden thing/, reason: 'Forbidden' },
  { name: 'a thrown 422 AdmissionDeniedError keeps code 422', path: '/throw-422', code: 422, message: /invalid thing/ },
  { name: 'an unexpected exception becomes code 500 inside a 200 review', path: '/throw', code: 500, message: /internal error: cannot read x/ },
  { name: 'a rejected promise with a non-Error becomes code 500', path: '/reject-async', code: 500, message: /internal error: a string/ },
  { name: 'a handler returning a non-response becomes code 500', path: '/garbage', code: 500, message: /no AdmissionResponse/ },
];
for (const tc of refusals) {
  test(tc.name, async () => {
    const r = await post(tc.path, review({ uid: 'u' }));
    assert.equal(r.status, 200);
    assert.equal(r.body.response.uid, 'u');
    assert.equal(r.body.response.allowed, false);
    assert.equal(r.body.response.status.code, tc.code);
    assert.match(r.body.response.status.message, tc.message);
    assert.equal(r.body.response.status.reason, tc.reason);
  });
}

const malformed: { name: string; payload: unknown }[] = [
  { name: 'an unknown apiVersion', payload: { ...review(), apiVersion: 'admission.k8s.io/v2' } },
  { name: 'a missing request', payload: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' } },
  { name: 'an empty uid', payload: review({ uid: '' }) },
  { name: 'a wrong kind', payload: { ...review(), kind: 'ConversionReview' } },
  { name: 'an unknown operation', payload: { ...review(), request: { ...review().request, operation: 'PATCH' } } },
  { name: 'a JSON array body', payload: [1, 2] },
];
for (const tc of malformed) {
  test(`${tc.name} is a 400 with a message naming the envelope`, async () => {
    const r = await post('/allow', tc.payload);
    assert.equal(r.status, 400);
    assert.match(r.body.message, /malformed AdmissionReview/);
  });
}

test('a body that is not JSON is a 400', async () => {
  const { app } = testApp(routes);
  const res = await app.inject({ method: 'POST', url: '/allow', payload: '{"apiVersion":', headers: { 'content-type': 'application/json' } });
  assert.equal(res.statusCode, 400);
});

test('a body that is not application/json is a 415, and bad bodies count as malformed reviews', async () => {
  const { app, metrics } = testApp(routes);
  const res = await app.inject({ method: 'POST', url: '/allow', payload: '{}', headers: { 'content-type': 'text/plain' } });
  assert.equal(res.statusCode, 415);
  assert.match(res.json().message, /application\/json/);
  await app.inject({ method: 'POST', url: '/allow', payload: '{"apiVersion":', headers: { 'content-type': 'application/json' } });
  const text = await metrics.registry.metrics();
  assert.match(text, /kruise_webhook_admission_requests_total\{webhook="allow",result="malformed"\} 2/);
});

test('controller-runtime\'s webhook metrics count requests by path and HTTP code, time them and track in-flight', async () => {
  const { app, metrics } = testApp(routes);
  await app.inject({ method: 'POST', url: '/allow', payload: review() as object });
  await app.inject({ method: 'POST', url: '/allow', payload: '{}', headers: { 'content-type': 'text/plain' } });
  const text = await metrics.registry.metrics();
  assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/allow",code="200"\} 1/);
  assert.match(text, /controller_runtime_webhook_requests_total\{webhook="\/allow",code="415"\} 1/);
  assert.match(text, /controller_runtime_webhook_latency_seconds_count\{webhook="\/allow"\} 2/);
  assert.match(text, /controller_runtime_webhook_requests_in_flight\{webhook="\/allow"\} 0/);
});

test('a body with a __proto__ key is refused with 400', async () => {
  const { app } = testApp(routes);
  const res = await app.inject({ method: 'POST', url: '/allow', payload: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } });
  assert.equal(res.statusCode, 400);
});

test('a 2 MiB object is accepted (the body limit is 7 MiB, not Fastify\'s 1 MiB)', async () => {
  const r = await post('/noop', review({ object: { metadata: { name: 'big', annotations: { blob: 'x'.repeat(2 * 1024 * 1024) } } } }));
  assert.equal(r.status, 200);
  assert.equal(r.body.response.allowed, true);
});

test('a body above 7 MiB is refused with 413', async () => {
  const { app } = testApp(routes);
  const res = await app.inject({ method: 'POST', url: '/allow', payload: review({ object: { blob: 'x'.repeat(7 * 1024 * 1024 + 1) } }) });
  assert.equal(res.statusCode, 413);
});

test('two routes with one path are refused at build time', () => {
  assert.throws(() => testApp([routes[0]!, routes[0]!]), /duplicate admission route/);
});

test('the admission app serves no /healthz, /readyz or /metrics: they are on the plain-HTTP health server only', async () => {
  const { app } = testApp(routes);
  for (const url of ['/healthz', '/readyz', '/metrics']) assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url);
});

test('the health server\'s /readyz reports the readiness reason with 503 until ready', async () => {
  const notReady = buildHealthApp({ log: silentLogger(), metrics: createMetrics(), readiness: () => 'caches not synced: namespaces' });
  const res = await notReady.inject({ method: 'GET', url: '/readyz' });
  assert.equal(res.statusCode, 503);
  assert.match(res.body, /caches not synced: namespaces/);
  const ready = buildHealthApp({ log: silentLogger(), metrics: createMetrics(), readiness: () => null });
  assert.equal((await ready.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  assert.equal((await ready.inject({ method: 'GET', url: '/healthz' })).body, 'ok');
});

test('while draining, every answer asks the client to close its connection', async () => {
  const drain = { draining: false };
  const app = buildApp({ log: silentLogger(), routes, metrics: createMetrics(), drain });
  const before = await app.inject({ method: 'POST', url: '/allow', payload: review() });
  assert.notEqual(before.headers.connection, 'close');
  drain.draining = true;
  const during = await app.inject({ method: 'POST', url: '/allow', payload: review() });
  assert.equal(during.statusCode, 200);
  assert.equal(during.json().response.allowed, true);
  assert.equal(during.headers.connection, 'close');
});

test('the metrics count reviews by webhook and result', async () => {
  const { app, metrics } = testApp(routes);
  await app.inject({ method: 'POST', url: '/label', payload: review() });
  await app.inject({ method: 'POST', url: '/deny', payload: review() });
  await app.inject({ method: 'POST', url: '/throw', payload: review() });
  await app.inject({ method: 'POST', url: '/allow', payload: { nope: true } });
  const text = await metrics.registry.metrics();
  assert.match(text, /kruise_webhook_admission_requests_total\{webhook="label",result="patched"\} 1/);
  assert.match(text, /kruise_webhook_admission_requests_total\{webhook="deny",result="denied"\} 1/);
  assert.match(text, /kruise_webhook_admission_requests_total\{webhook="throw",result="errored"\} 1/);
  assert.match(text, /kruise_webhook_admission_requests_total\{webhook="allow",result="malformed"\} 1/);
  assert.match(text, /kruise_webhook_admission_duration_seconds_count\{webhook="label",result="patched"\} 1/);
});

test('replies are JSON with charset, as Fastify would serialise them', async () => {
  const { app } = testApp(routes);
  const res = await app.inject({ method: 'POST', url: '/label', payload: review() });
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.json().response.patchType, 'JSONPatch');
});

test('logs: a refusal is one info line with the review identity, an admission writes nothing at info, debug adds it', async () => {
  const logApp = (level: string) => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    return { app: buildApp({ log, routes, metrics: createMetrics() }), lines };
  };
  const info = logApp('info');
  await info.app.inject({ method: 'POST', url: '/label', payload: review({ uid: 'ok-1' }) });
  await info.app.inject({ method: 'POST', url: '/deny', payload: review({ uid: 'no-1', namespace: 'ns', name: 'p' }) });
  await info.app.inject({ method: 'POST', url: '/throw', payload: review({ uid: 'err-1' }) });
  const refused = info.lines.filter((l) => l.msg === 'refused');
  assert.deepEqual(refused.map((l) => [l.uid, l.result, l.code]), [['no-1', 'denied', 403], ['err-1', 'errored', 500]]);
  assert.deepEqual([refused[0]!.webhook, refused[0]!.namespace, refused[0]!.name, refused[0]!.operation, refused[0]!.user], ['deny', 'ns', 'p', 'CREATE', 'tester']);
  assert.equal(info.lines.filter((l) => l.msg === 'admission handler failed' && l.uid === 'err-1').length, 1);
  assert.equal(info.lines.some((l) => l.uid === 'ok-1'), false);
  const debug = logApp('debug');
  await debug.app.inject({ method: 'POST', url: '/label', payload: review({ uid: 'ok-2' }) });
  assert.deepEqual(debug.lines.filter((l) => l.msg === 'admitted').map((l) => [l.uid, l.result]), [['ok-2', 'patched']]);
});
