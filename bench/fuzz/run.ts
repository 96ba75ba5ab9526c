// The fuzzers of webhook/fuzz.test.ts and controller/fuzz.test.ts at 1,000,000 cases (not in CI): 960,000 reviews
// of every admission route and /convert, and 40,000 controller reconciles, with the same generators and oracles
// (webhook/fuzz/, controller/fuzz/), a fresh seed unless one is given, progress every 100,000 reviews and 10,000
// reconciles. Stops by itself when done.
//   npm run bench:fuzz [-- --count=1000000] [-- --seed=<n>]
import { runControllerFuzz } from '../../controller/fuzz/run.js';
import { runFuzz } from '../../webhook/fuzz/run.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const total = Number(arg('count') ?? 1_000_000);
/** The controller share of the cases (in CI 1.5 in 100; here 4: they find more per case). */
const reconciles = Math.round(total * 0.04);
const count = total - reconciles;
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
console.log(`cost checks by route ${JSON.stringify(report.costChecksByRoute)}`);
if (report.problems.size === 0) console.log('no problems');
else {
  console.log(`PROBLEMS (seed ${seed}):`);
  for (const [p, n] of report.problems) console.log(`  ${n}× ${p}`);
  process.exitCode = 1;
}

console.log(`fuzzing ${reconciles} controller reconciles, seed ${seed}`);
const cStarted = performance.now();
let cLast = 0;
const controllers = await runControllerFuzz(reconciles, seed, (done) => {
  if (done - cLast < 10_000 && done < reconciles) return;
  cLast = done;
  console.log(`  ${done} reconciles, ${((performance.now() - cStarted) / 1000).toFixed(0)} s`);
});
console.log(`${reconciles} reconciles in ${((performance.now() - cStarted) / 1000).toFixed(0)} s; cases ${JSON.stringify(controllers.byController)}`);
console.log(`most API calls per byte ${JSON.stringify(controllers.callsPerByte)}`);
if (controllers.problems.size === 0) console.log('no controller problems');
else {
  console.log(`CONTROLLER PROBLEMS (seed ${seed}; replay one with runCase(seed, i) from controller/fuzz/run-case.ts):`);
  for (const [p, n] of controllers.problems) console.log(`  ${n}× ${p}`);
  process.exitCode = 1;
}
