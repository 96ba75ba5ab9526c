// Seeded fuzzing of the whole HTTP path: 100,000 random, mutated, deep and large AdmissionReviews through inject
// (webhook/fuzz/: generate.ts, oracle.ts, run.ts). Every reply must be a well-formed AdmissionReview or a 400 for a
// malformed envelope, never ≥500; every patch must apply to the object sent and keep a valid pod valid; injection must
// be idempotent; and /mutate-pod's reads of the request must stay linear. The seed is printed; FUZZ_SEED replays or
// varies it. bench/fuzz/run.ts runs 1,000,000 of the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFuzz } from './fuzz/run.js';

const TOTAL = 100_000;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 0x5eed_c0de;

test(`${TOTAL} fuzzed reviews all get a well-formed, applicable answer (seed ${SEED}; FUZZ_SEED=<n> to vary)`, { timeout: 600_000 }, async () => {
  const report = await runFuzz(TOTAL, SEED);
  console.log(`fuzz seed ${SEED}: outcomes ${JSON.stringify(report.counts)}; shapes ${JSON.stringify(report.shapes)}; ` +
    `${report.idempotenceChecks} idempotence and ${report.costChecks} cost checks`);
  const bad = [...report.problems.entries()].map(([p, n]) => `${n}× ${p}`);
  assert.deepEqual(bad, [], `FUZZ_SEED=${SEED}`);
  // The fuzzer must exercise every outcome class and shape, or it is not testing much.
  for (const k of ['400', '200 allowed', '200 patched', '200 400', '200 403']) assert.ok((report.counts[k] ?? 0) > 0, `no ${k} replies: ${JSON.stringify(report.counts)}`);
  for (const s of ['random', 'mutated', 'fixture', 'deep', 'large', 'c1']) assert.ok((report.shapes[s] ?? 0) > 0, `no ${s} cases`);
  assert.ok(report.idempotenceChecks > 1_000 && report.costChecks > 500, `${report.idempotenceChecks} idempotence, ${report.costChecks} cost checks`);
});
