// Seeded fuzzing of every controller's reconcile over the FakeCluster (controller/fuzz/): objects of each kind with
// numeric extremes, long names and long lists (shared/testing/fuzz-extremes.ts, values the CRD schemas admit), three
// reconcile rounds each. No reconcile may throw a programming error, and the API calls of one round must stay within a
// linear bound of the object's bytes (run-case.ts). With webhook/fuzz.test.ts's reviews, the CI's 100,000 cases.
// The seed is printed; FUZZ_SEED replays or varies it; a single case replays with runCase(seed, i).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runControllerFuzz } from './fuzz/run.js';
import { TARGETS } from './fuzz/targets.js';

const TOTAL = 1_500;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 0x5eed_c0de;

test(`${TOTAL} fuzzed objects reconcile without programming errors and with linear API work (seed ${SEED}; FUZZ_SEED=<n> to vary)`, { timeout: 900_000 }, async () => {
  const report = await runControllerFuzz(TOTAL, SEED);
  console.log(`controller fuzz seed ${SEED}: cases ${JSON.stringify(report.byController)}; most API calls per byte ${JSON.stringify(report.callsPerByte)}`);
  const bad = [...report.problems.entries()].map(([p, n]) => `${n}× ${p}`);
  assert.deepEqual(bad, [], `FUZZ_SEED=${SEED}`);
  for (const t of TARGETS) assert.ok((report.byController[t.controller.name] ?? 0) > TOTAL / TARGETS.length / 2, `few ${t.controller.name} cases`);
});
