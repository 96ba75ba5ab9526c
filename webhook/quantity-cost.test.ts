// Review N-C1 through the real routes: the review's absurd-exponent requests (webhook/fuzz/quantity-reviews.ts) get
// Go's answers at once. Before the fix each took 2–16 s of synchronous BigInt work (10^exponent built), so this file
// hung past its timeout; the timeout is only a hang guard, the assertions are about the answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzRoutes } from './fuzz/run.js';
import { quantityReviews } from './fuzz/quantity-reviews.js';
import { decodePatch, testApp } from './test-helpers.js';

type Json = Record<string, any>;

async function answers(): Promise<Map<string, { status: number; body: Json }>> {
  const { app } = testApp(fuzzRoutes());
  await app.ready();
  const out = new Map<string, { status: number; body: Json }>();
  try {
    for (const q of quantityReviews()) {
      const res = await app.inject({ method: 'POST', url: q.path, payload: JSON.stringify(q.body), headers: { 'content-type': 'application/json' } });
      out.set(q.name, { status: res.statusCode, body: JSON.parse(res.body) as Json });
    }
  } finally {
    await app.close();
  }
  return out;
}

test("the review's N-C1 requests are answered as Go answers them, without expanding 10^exponent", { timeout: 20_000 }, async () => {
  const a = await answers();
  const get = (name: string) => {
    const r = a.get(name);
    assert.ok(r, name);
    assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body.response as Json;
  };

  // 1e-100000000 is one nano after Go's Round(Nano); the defaulter's RoundUp(Milli) makes it 1e-3.
  const csMutate = get('CloneSet mutate, limits.cpu 1e-100000000');
  assert.equal(csMutate.allowed, true);
  assert.deepEqual(decodePatch(csMutate.patch).find((op: Json) => op.path === '/spec/template/spec/containers/0/resources/limits/cpu'),
    { op: 'replace', path: '/spec/template/spec/containers/0/resources/limits/cpu', value: '1e-3' });
  const ssMutate = get('SidecarSet mutate, limits.cpu 1e-100000000');
  assert.equal(ssMutate.allowed, true);
  assert.deepEqual(decodePatch(ssMutate.patch).find((op: Json) => op.path === '/spec/containers/0/resources/limits/cpu'),
    { op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: '1e-3' });

  // 1e30000000 parses (Go keeps it as an int64 amount at scale 30,000,000); validation compares it without expanding.
  const csValidate = get('CloneSet validate, requests.cpu 1e30000000');
  assert.equal(csValidate.allowed, false);
  assert.equal(csValidate.status.code, 422);
  assert.doesNotMatch(csValidate.status.message, /requests\[cpu\]/);

  const convert = get('/convert, a SidecarSet with cpu 1e-30000000');
  assert.equal(convert.result.status, 'Success');
  assert.equal(convert.convertedObjects[0].spec.containers[0].resources.limits.cpu, '1e-30000000');

  // -9999999999 wraps in Go's int32 to -1410065407: a tiny positive value, not an error.
  const ssValidate = get('SidecarSet validate, limits.memory 1e-9999999999');
  assert.doesNotMatch(ssValidate.status?.message ?? '', /memory|quantit/);

  // Past int64 Go's ParseInt fails: unable to parse quantity's suffix, named at its field, a 400.
  const refused = get('CloneSet mutate, requests.cpu 1e99999999999999999999 (past int64: refused)');
  assert.deepEqual([refused.allowed, refused.status.code], [false, 400]);
  assert.equal(refused.status.message,
    'request.object is not a valid CloneSet: spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "1e99999999999999999999": unable to parse quantity\'s suffix');
});
