// In-process micro-benchmark of the /mutate-pod request path, step by step, on the benchmark's fixtures (no TLS, no
// sockets), in CPU time (best of 15 batches, so other processes on a busy machine barely move it):
//   node --import tsx bench/admission/steps.ts
// Then the whole route through Fastify's inject, for kruise-ts and for the bare allow-all handler, for scale.
import Fastify from 'fastify';
import type { Pod } from '../../shared/api/meta.js';
import { mutatePodOnCreate } from '../../shared/domain/pod-mutation.js';
import { createLogger } from '../../shared/log.js';
import { PodDecoder } from '../../webhook/admission/decode-object.js';
import { encodeReview } from '../../webhook/admission/encode.js';
import { diffOps, diffToPatch, opsJson } from '../../webhook/admission/patch.js';
import { patched } from '../../webhook/admission/response.js';
import { decodeReview, type AdmissionRequest } from '../../webhook/admission/review.js';
import { buildApp } from '../../webhook/app.js';
import { decodeRequestObjects } from '../../webhook/handlers/common.js';
import { makeRoutes, podInjectionContext } from '../../webhook/handlers/index.js';
import { createMetrics } from '../../webhook/metrics.js';
import { podReview, routeDeps } from './fixtures.js';

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

function bench(name: string, fn: () => unknown, n = 2_000): number {
  for (let i = 0; i < 2_000; i++) fn();
  let best = Infinity;
  for (let b = 0; b < 15; b++) {
    const t = cpuNow();
    for (let i = 0; i < n; i++) fn();
    best = Math.min(best, (cpuNow() - t) / n);
  }
  console.log(`  ${best.toFixed(2).padStart(8)} µs  ${name}`);
  return best;
}

async function benchAsync(name: string, fn: () => Promise<unknown>, n = 500): Promise<number> {
  for (let i = 0; i < 1_000; i++) await fn();
  let best = Infinity;
  for (let b = 0; b < 10; b++) {
    const t = cpuNow();
    for (let i = 0; i < n; i++) await fn();
    best = Math.min(best, (cpuNow() - t) / n);
  }
  console.log(`  ${best.toFixed(2).padStart(8)} µs  ${name}`);
  return best;
}

const deps = routeDeps(() => new Date('2026-01-02T03:04:05Z'));
const body = JSON.stringify(podReview(1));
const review = JSON.parse(body) as { apiVersion: string; request: AdmissionRequest };
const req = review.request;
const pod = req.object as Pod;
const ctx = podInjectionContext(deps, req);
const mutated = mutatePodOnCreate(pod, ctx);
const ops = diffOps(pod, mutated);
const patch = diffToPatch(pod, mutated);
const result = patched(patch);
const infoLog = createLogger({ level: 'info', name: 'bench' });
const metrics = createMetrics();

console.log(`request ${body.length} B, patch ${patch.ops} ops (${JSON.stringify(ops).length} B of JSON), reply ${encodeReview(review.apiVersion, req.uid, result).byteLength} B`);
console.log('steps (CPU time per call):');
bench('JSON.parse(request body)  [bare pays this too]', () => JSON.parse(body));
bench('decodeReview (envelope schema)', () => decodeReview(review));
bench('decodeRequestObjects(pod)', () => decodeRequestObjects(req, PodDecoder));
bench('podInjectionContext', () => podInjectionContext(deps, req));
bench('mutatePodOnCreate (10 of 100 SidecarSets)', () => mutatePodOnCreate(pod, ctx));
bench('  diffOps', () => diffOps(pod, mutated));
bench('  opsJson(ops) (the encoder: reused sidecars and annotations from their remembered text)', () => opsJson(ops));
bench('  for scale: JSON.stringify(ops)', () => JSON.stringify(ops));
bench('diffToPatch (diff + JSON + base64)', () => diffToPatch(pod, mutated));
bench('encodeReview', () => encodeReview(review.apiVersion, req.uid, result));
bench('metrics observe + inc', () => {
  metrics.admissionDuration.observe({ webhook: 'mutate-pod', result: 'patched' }, 0.0001);
  metrics.admissionTotal.inc({ webhook: 'mutate-pod', result: 'patched' });
});
bench('for scale: log.child(identity bindings) (now made only when a line is written)', () =>
  infoLog.child({ webhook: 'mutate-pod', uid: req.uid, kind: req.kind.kind, namespace: req.namespace, name: req.name, operation: req.operation, user: req.userInfo?.username }),
);
bench('for scale: structuredClone(pod) (no longer made)', () => structuredClone(pod));
bench('for scale: JSON.stringify(reply object) (Fastify serialisation, no longer used)', () => JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: req.uid, ...result } }));

console.log('whole POST /mutate-pod through app.inject (no TLS, no sockets; inject adds its own overhead to both):');
const kruise = buildApp({ log: createLogger({ level: 'info', name: 'bench' }), metrics: createMetrics(), routes: makeRoutes(deps) });
const bare = Fastify();
bare.post('/mutate-pod', async (r) => {
  const b = r.body as { apiVersion: string; request: { uid: string } };
  return { apiVersion: b.apiVersion, kind: 'AdmissionReview', response: { uid: b.request.uid, allowed: true } };
});
const inject = (app: typeof bare) => async () => {
  const r = await app.inject({ method: 'POST', url: '/mutate-pod', headers: { 'content-type': 'application/json' }, payload: body });
  if (r.statusCode !== 200) throw new Error(`status ${r.statusCode}`);
};
const b = await benchAsync('bare allow-all Fastify', inject(bare));
const k = await benchAsync('kruise-ts (production table, info logger)', inject(kruise as unknown as typeof bare));
console.log(`  CPU per request ratio bare/kruise (in-process, no TLS) = ${(b / k).toFixed(3)}`);
