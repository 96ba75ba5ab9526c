import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuantity } from '../quantity-math.js';
import { formatGoQuantity } from '../quantity.js';
import { evaluateExpression, ExpressionError, MAX_EXPRESSION_BYTES, MAX_NESTING, num, qty, type Value } from './expression.js';
import { formatGoFloat } from './go-float.js';

const show = (v: Value) => (v.kind === 'quantity' ? formatGoQuantity(v.q) : formatGoFloat(v.n));
const vars = (bound: Record<string, string | number>) =>
  new Map(Object.entries(bound).map(([k, v]) => [k, typeof v === 'number' ? num(v) : qty(parseQuantity(v))]));

interface Case { name: string; expr: string; vars?: Record<string, string | number>; want?: string; kind?: Value['kind']; error?: string | RegExp }

// pkg/util/calculator/calculator_test.go (TestBasicArithmetic, TestQuantityOperations, TestNegativeValues,
// TestProposalScenarios), then the further evaluator outputs listed in spec/openkruise-v1.9.md §3.7.
const cases: Case[] = [
  { name: 'parentheses then multiplication', expr: '(2 + 3) * 4', want: '20', kind: 'number' },
  { name: 'a percentage is a hundredth', expr: '50%', want: '0.5', kind: 'number' },
  { name: 'an exponent literal is a number', expr: '1e2', want: '100', kind: 'number' },
  { name: 'two dots are two numbers in a row: a syntax error', expr: '5..5', error: 'parse error: syntax error at line 1, col 5' },
  { name: 'a second percent sign is a syntax error', expr: '5%%', error: 'parse error: syntax error at line 1, col 4' },
  { name: 'number division by zero', expr: '10 / 0', error: 'division by zero' },
  { name: 'an unknown function', expr: 'unknown(1, 2)', error: 'unknown function: unknown' },
  { name: 'binary quantities subtract in binary', expr: '100Mi - 50Mi', want: '50Mi', kind: 'quantity' },
  { name: 'number times quantity', expr: '2 * 40m', want: '80m' },
  { name: 'max of a quantity and a number is the converted number', expr: 'max(40m, 20)', want: '20', kind: 'quantity' },
  { name: 'min of two quantities', expr: 'min(40m, 20m)', want: '20m' },
  { name: 'quantity times quantity', expr: '40m * 2m', error: 'multiplication of two quantities' },
  { name: 'division by a quantity', expr: '2 / 40m', error: 'division by quantity' },
  { name: 'a negative number result', expr: '-10', error: 'calculation result is negative: -10' },
  { name: 'a negative quantity result', expr: '-100m', error: 'calculation result is negative: -100m' },
  { name: 'a negative difference of quantities', expr: '50m - 100m', error: 'calculation result is negative: -50m' },
  { name: 'zero is not negative', expr: '10 - 10', want: '0', kind: 'number' },
  { name: 'proposal: half the cpu, at least 50m', expr: 'max(cpu * 50%, 50m)', vars: { cpu: '200m' }, want: '100m' },
  { name: 'proposal: cpu minus more than it has', expr: 'cpu - 100m', vars: { cpu: '50m' }, error: 'calculation result is negative: -50m' },
  { name: 'a fraction of one cpu is milli', expr: 'cpu*0.5', vars: { cpu: '1' }, want: '500m' },
  { name: 'a number added to cpu counts as cores', expr: 'cpu + 1', vars: { cpu: '500m' }, want: '1500m' },
  { name: 'a number added to memory counts as one unit too', expr: 'memory + 1', vars: { memory: '1Gi' }, want: '1073741825' },
  { name: 'memory scaled keeps its binary format', expr: 'memory*1.5', vars: { memory: '1Gi' }, want: '1536Mi' },
  { name: 'a fractional binary literal', expr: '0.5Gi', want: '512Mi' },
  { name: 'a percentage of memory', expr: 'memory*33%', vars: { memory: '100Mi' }, want: '33Mi' },
  { name: 'unary minus binds to its factor', expr: '-cpu + 1', vars: { cpu: '200m' }, want: '800m' },
  { name: 'abs is not a function', expr: 'abs(cpu)', vars: { cpu: '1' }, error: 'unknown function: abs' },
  { name: 'the first undefined variable is reported over the syntax error after it', expr: 'invalid expression @#$', vars: { cpu: 1 }, error: 'undefined variable: invalid' },
  // More of calculator_test.go: TestBasicArithmetic, TestQuantityOperations, TestVariables.
  { name: 'a fractional percentage', expr: '100.5%', want: '1.005', kind: 'number' },
  { name: 'an upper-case exponent', expr: '1E2', want: '100', kind: 'number' },
  { name: 'a percentage times a number', expr: '100% * 2', want: '2', kind: 'number' },
  { name: 'nested min and max of numbers', expr: 'min(max(max(max(0.5,0.5*0.5),0.5-1.0),0.5-1.0),3.0)', want: '0.5', kind: 'number' },
  { name: 'nested min and max with a quantity', expr: 'min(max(max(max(500m,0.5*0.5),0.5-1.0),0.5-1.0),3.0)', want: '500m', kind: 'quantity' },
  { name: 'quantities add', expr: '40m + 20m', want: '60m' },
  { name: 'a quantity divided by a number', expr: '100m / 2', want: '50m' },
  { name: 'a lone word is an undefined variable', expr: 'invalid', error: 'undefined variable: invalid' },
  { name: 'TestVariables: simple variable', expr: 'cpu', vars: { cpu: '100m' }, want: '100m' },
  { name: 'TestVariables: variable in expression', expr: 'cpu * 2', vars: { cpu: '50m' }, want: '100m' },
  { name: 'TestVariables: max with variable', expr: 'max(cpu, 200m)', vars: { cpu: '100m' }, want: '200m' },
  { name: 'TestVariables: piecewise min/max', expr: 'min(max(max(max(0.5,0.5*cpu),cpu-1.0),cpu-1.0),3.0)', vars: { cpu: '0.5' }, want: '500m' },
  { name: 'TestVariables: max with decimal number and quantity', expr: 'max(0.25, cpu)', vars: { cpu: '100m' }, want: '250m' },
  { name: 'TestVariables: max with quantity and decimal number', expr: 'max(cpu, 0.75)', vars: { cpu: '500m' }, want: '750m' },
  { name: 'TestVariables: min with decimal number and quantity', expr: 'min(0.8, cpu)', vars: { cpu: '1.0' }, want: '800m' },
  { name: 'TestVariables: min with quantity and decimal number', expr: 'min(cpu, 1.5)', vars: { cpu: '2.0' }, want: '1500m' },
  { name: 'TestVariables: max(min(2*cpu,-cpu+3.0),2*cpu-3.0)', expr: 'max(min(2*cpu,-cpu+3.0),2*cpu-3.0)', vars: { cpu: '1.5' }, want: '1500m' },
  { name: 'TestVariables: max(min(2*cpu,3.0-cpu),2*cpu-3.0)', expr: 'max(min(2*cpu,3.0-cpu),2*cpu-3.0)', vars: { cpu: '1.5' }, want: '1500m' },
  { name: 'TestVariables: undefined variable', expr: 'undefined_var', error: 'undefined variable: undefined_var' },
  { name: 'TestVariables: memory variable', expr: 'memory + 100Mi', vars: { memory: '200Mi' }, want: '300Mi' },
  { name: 'TestVariables: memory variable with max', expr: '0.5 * memory + max(0, memory-2Gi)', vars: { memory: '8Gi' }, want: '10Gi' },
  { name: 'TestNegativeValues: subtraction resulting in negative', expr: '10 - 20', error: 'calculation result is negative: -10' },
  // Further behaviour of upstream's grammar and lexer.
  { name: 'max with one argument', expr: 'max(cpu*50%)', vars: { cpu: 1 }, error: 'max function requires exactly 2 arguments, got 1' },
  { name: 'max without arguments is a syntax error at the closing parenthesis', expr: 'max()', error: 'parse error: syntax error at line 1, col 6' },
  { name: 'an unclosed call is a syntax error at the end', expr: 'max(cpu*50%, 50m', vars: { cpu: 1 }, error: 'parse error: syntax error at line 1, col 17' },
  { name: 'a third argument is a syntax error at its comma', expr: 'max(1, 2, 3)', error: 'parse error: syntax error at line 1, col 10' },
  { name: 'variables are case-insensitive', expr: 'CPU * 2', vars: { cpu: '100m' }, want: '200m' },
  { name: 'an unknown variable is named in lower case', expr: 'Foo + 1', error: 'undefined variable: foo' },
  { name: 'function names are case-insensitive', expr: 'MAX(1, 2)', want: '2', kind: 'number' },
  { name: 'a number with unknown letters silently reads as 0', expr: '50x + 1', want: '1', kind: 'number' },
  { name: 'E is an exponent, not a unit', expr: '1Ei', error: 'parse error: syntax error at line 1, col 4' },
  { name: 'a later error replaces an earlier one', expr: '1/0 + x', error: 'undefined variable: x' },
  { name: 'an invalid quantity literal reports the quantity error', expr: '1e5m', error: /^quantities must match the regular expression/ },
  { name: 'cpu divided by three truncates to milli', expr: 'cpu/3', vars: { cpu: '100m' }, want: '33m' },
  { name: 'memory divided by three prints milli bytes', expr: 'memory/3', vars: { memory: '100Mi' }, want: '34952533333m' },
  { name: 'a negative intermediate value is fine', expr: 'max(memory-100Mi, 50Mi)', vars: { memory: '20Mi' }, want: '50Mi' },
  { name: 'a lone dot is the number 0', expr: 'cpu * .', vars: { cpu: '1' }, want: '0' },
  { name: 'a NUL byte ends the input', expr: '1\u0000garbage', want: '1', kind: 'number' },
  { name: 'a newline moves the error position to the next line', expr: '1 +\n  )', error: 'parse error: syntax error at line 2, col 4' },
  { name: 'large negative numbers print in exponent form', expr: '-1234567', error: 'calculation result is negative: -1.234567e+06' },
  { name: 'a literal keeps its spelling when it wins', expr: 'max(cpu, 1500m)', vars: { cpu: '1' }, want: '1500m' },
];

for (const tc of cases) {
  test(`expression: ${tc.name}`, () => {
    const run = () => evaluateExpression(tc.expr, vars(tc.vars ?? {}));
    if (tc.error !== undefined) {
      assert.throws(run, (err: unknown) => {
        assert.ok(err instanceof ExpressionError);
        if (typeof tc.error === 'string') assert.equal(err.message, tc.error);
        else assert.match(err.message, tc.error!);
        return true;
      });
      return;
    }
    const v = run();
    assert.equal(show(v), tc.want);
    if (tc.kind) assert.equal(v.kind, tc.kind);
  });
}

test('expression: input longer than the bound is refused before it is read', () => {
  assert.throws(() => evaluateExpression('1+'.repeat(MAX_EXPRESSION_BYTES) + '1', new Map()), /expression is longer than 4096 bytes/);
  assert.equal(show(evaluateExpression(`${'1+'.repeat(1000)}1`, new Map())), '1001');
});

test('expression: nesting deeper than the bound is refused, shallower nesting evaluates', () => {
  const nested = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`;
  assert.throws(() => evaluateExpression(nested(MAX_NESTING + 1), new Map()), /expression nests deeper than 64 levels/);
  assert.throws(() => evaluateExpression(`${'-'.repeat(MAX_NESTING + 1)}1`, new Map()), /nests deeper/);
  assert.equal(show(evaluateExpression(nested(MAX_NESTING - 1), new Map())), '1');
});
