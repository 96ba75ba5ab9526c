// N-C1 figures through the production routes (in-process app.inject, static caches): the review's absurd-exponent
// requests, each timed alone, and an ordinary pod review sent right behind each (what the review saw wait 14.7 s).
// A plain pod review alone is the baseline of the same run. Stops by itself.
//   node --import tsx bench/quantity/handlers.ts
import { FUZZ_OBJECTS } from '../../webhook/fuzz/generate.js';
import { quantityReviews } from '../../webhook/fuzz/quantity-reviews.js';
import { fuzzRoutes } from '../../webhook/fuzz/run.js';
import { testApp } from '../../webhook/test-helpers.js';

const { app } = testApp(fuzzRoutes());
await app.ready();
const podReview = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
  request: { uid: 'pod', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default', operation: 'CREATE', userInfo: { username: 'u' }, object: FUZZ_OBJECTS['/mutate-pod']!.object },
});
const send = async (url: string, payload: string) => {
  const t = performance.now();
  const res = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
  const body = JSON.parse(res.body) as { response?: { allowed?: boolean; status?: { code?: number }; result?: { status?: string } } };
  const r = body.response;
  const answer = r?.result?.status ?? (r?.allowed ? 'allowed' : `refused ${r?.status?.code}`);
  return { ms: performance.now() - t, answer: `${res.statusCode} ${answer}` };
};
for (let i = 0; i < 20; i++) await send('/mutate-pod', podReview); // warm up
const base = Math.min(...(await Promise.all(Array.from({ length: 1 }, () => send('/mutate-pod', podReview)))).map((x) => x.ms));
console.log(`baseline: a pod review alone ${base.toFixed(1)} ms`);
for (const q of quantityReviews()) {
  const payload = JSON.stringify(q.body);
  // Warm the route up with the same review and an ordinary quantity, so the figure is the quantity's, not the JIT's.
  for (let i = 0; i < 5; i++) await send(q.path, payload.replace(/"1e[-+0-9]+"/, '"1"'));
  const started = performance.now();
  // The pod review is sent as the other starts; its latency counts from then (it waits for the other's CPU).
  const [r, podDone] = await Promise.all([send(q.path, payload), send('/mutate-pod', podReview).then(() => performance.now() - started)]);
  console.log(`${q.name.padEnd(72)} ${r.answer.padEnd(16)} ${r.ms.toFixed(1).padStart(9)} ms; a pod review sent with it answered in ${podDone.toFixed(1).padStart(9)} ms`);
}
await app.close();
