// N-C1 figures: in-process resource.ParseQuantity (and Go's print of it) on the review's absurd exponents. Each input
// is timed alone in this process, with a 1-digit baseline ("1") in the same run for the ratio. Usage:
//   node --import tsx bench/quantity/exponents.ts [input …]
import { canonicalQuantity } from '../../shared/domain/quantity.js';
import { parseGoQuantity } from '../../shared/domain/quantity.js';

const inputs = process.argv.slice(2).length > 0
  ? process.argv.slice(2)
  : ['1e-10000000', '1e-100000000', '1e-200000000', '1e30000000', '1e9999999999', '1e-9999999999', '-1.5e-2147483648', '123456789012345678901234567890e30000000'];

function time(fn: () => unknown): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const base = Math.min(...Array.from({ length: 50 }, () => time(() => parseGoQuantity('1'))));
console.log(`baseline parseGoQuantity("1"): ${base.toFixed(4)} ms`);
for (const input of inputs) {
  let shown = '';
  const parse = time(() => {
    try { parseGoQuantity(input); } catch (err) { shown = `refused: ${(err as Error).message}`; }
  });
  const print = time(() => {
    try { shown ||= canonicalQuantity(input); } catch (err) { shown = `refused: ${(err as Error).message}`; }
  });
  console.log(`${input.padEnd(42)} parse ${parse.toFixed(3).padStart(10)} ms  parse+print ${print.toFixed(3).padStart(10)} ms  (${(parse / base).toFixed(0)}× baseline)  → ${shown.slice(0, 80)}`);
}
