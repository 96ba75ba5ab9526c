// Seeded fuzzing of the whole HTTP path: random, mutated, deep and large AdmissionReviews and ConversionReviews, and
// numeric extremes (quantity exponents, int-or-string, replicas, long names and lists: shared/testing/fuzz-extremes.ts)
// on every admission route and /convert (webhook/fuzz/: generate.ts, oracle.ts, run.ts). Every reply must be a
// well-formed AdmissionReview / ConversionReview or a 400 for a malformed envelope, never ≥500 or an internal error;
// every patch must apply to the object sent and keep a valid pod valid; injection must be idempotent; and on every
// route the reads of the request and the quantity work (digits of powers of ten) must stay linear in its bytes. With
// controller/fuzz.test.ts (the reconciles) this is the CI's 100,000 cases. The seed is printed; FUZZ_SEED replays or
// varies it. bench/fuzz/run.ts runs 1,000,000 of the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FUZZ_OBJECTS, ROUTE_ALIASES } from './fuzz/generate.js';
import { runFuzz } from './fuzz/run.js';

const ROUTES = [...Object.keys(FUZZ_OBJECTS), ...Object.values(ROUTE_ALIASES), '/convert'];

/** With controller/fuzz.test.ts's 1,500 reconciles, 100,000 cases. */
const TOTAL = 98_500;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 0x5eed_c0de;

test(`${TOTAL} fuzzed reviews all get a well-formed, applicable answer (seed ${SEED}; FUZZ_SEED=<n> to vary)`, { timeout: 600_000 }, async () => {
  const report = await runFuzz(TOTAL, SEED);
  console.log(`fuzz seed ${SEED}: outcomes ${JSON.stringify(report.counts)}; shapes ${JSON.stringify(report.shapes)}; ` +
    `${report.idempotenceChecks} idempotence and ${report.costChecks} cost checks (${JSON.stringify(report.costChecksByRoute)})`);
  const bad = [...report.problems.entries()].map(([p, n]) => `${n}× ${p}`);
  assert.deepEqual(bad, [], `FUZZ_SEED=${SEED}`);
  // The fuzzer must exercise every outcome class and shape, or it is not testing much.
  for (const k of ['400', '200 allowed', '200 patched', '200 400', '200 403', '200 422', '200 Success', '200 Failure']) assert.ok((report.counts[k] ?? 0) > 0, `no ${k} replies: ${JSON.stringify(report.counts)}`);
  for (const s of ['random', 'mutated', 'fixture', 'deep', 'large', 'c1', 'numeric', 'convert']) assert.ok((report.shapes[s] ?? 0) > 0, `no ${s} cases`);
  assert.ok(report.idempotenceChecks > 1_000 && report.costChecks > 3_000, `${report.idempotenceChecks} idempotence, ${report.costChecks} cost checks`);
  // Every admission route and /convert had its cost measured, not only /mutate-pod.
  for (const path of ROUTES) assert.ok((report.costChecksByRoute[path] ?? 0) >= 40, `only ${report.costChecksByRoute[path] ?? 0} cost checks of ${path}`);
});
