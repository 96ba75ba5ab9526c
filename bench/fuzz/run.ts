// The fuzzer of webhook/fuzz.test.ts at 1,000,000 reviews (not in CI): the same generator and oracle
// (webhook/fuzz/), a fresh seed unless one is given, progress every 100,000. Stops by itself when done.
//   npm run bench:fuzz [-- --count=1000000] [-- --seed=<n>]
import { runFuzz } from '../../webhook/fuzz/run.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const count = Number(arg('count') ?? 1_000_000);
const seed = arg('seed') !== undefined ? Number(arg('seed')) : (Date.now() & 0x7fffffff);
console.log(`fuzzing ${count} reviews, seed ${seed} (replay: --seed=${seed}, or FUZZ_SEED=${seed} for the test)`);
const started = performance.now();
let last = 0;
const report = await runFuzz(count, seed, (done) => {
  if (done - last < 100_000 && done < count) return;
  last = done;
  console.log(`  ${done} reviews, ${((performance.now() - started) / 1000).toFixed(0)} s`);
});
const seconds = (performance.now() - started) / 1000;
console.log(`${count} reviews in ${seconds.toFixed(0)} s (${(count / seconds).toFixed(0)}/s)`);
console.log(`outcomes ${JSON.stringify(report.counts)}`);
console.log(`shapes ${JSON.stringify(report.shapes)}; ${report.idempotenceChecks} idempotence and ${report.costChecks} cost checks`);
if (report.problems.size === 0) console.log('no problems');
else {
  console.log(`PROBLEMS (seed ${seed}):`);
  for (const [p, n] of report.problems) console.log(`  ${n}× ${p}`);
  process.exitCode = 1;
}
