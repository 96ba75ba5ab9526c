import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalQuantity, compareQuantityValues, formatGoQuantity, isWholeQuantity, parseQuantityValue, QuantityParseError } from './quantity.js';
import { add, cmp, milliValue, parseQuantity, QuantityRangeError } from './quantity-math.js';

// Expected values were taken from Go: resource.ParseQuantity → json.Marshal, and after RoundUp(resource.Milli)
// (k8s.io/apimachinery v0.30.10).
const cases: { name: string; input: string | number; go: string; rounded: string }[] = [
  { name: 'whole millicores collapse to units', input: '1000m', go: '1', rounded: '1' },
  { name: 'a fraction becomes milli', input: '0.5', go: '500m', rounded: '500m' },
  { name: 'a JSON number is read like its decimal literal', input: 0.5, go: '500m', rounded: '500m' },
  { name: 'binary units stay binary', input: '1Gi', go: '1Gi', rounded: '1Gi' },
  { name: 'binary values move to the largest exact binary suffix', input: '1024Mi', go: '1Gi', rounded: '1Gi' },
  { name: 'exact powers of 1024 in Ki collapse', input: '2048Ki', go: '2Mi', rounded: '2Mi' },
  { name: 'fractional binary values are expressed in a smaller binary unit', input: '1.5Gi', go: '1536Mi', rounded: '1536Mi' },
  { name: 'half a Gi is 512Mi', input: '0.5Gi', go: '512Mi', rounded: '512Mi' },
  { name: 'binary values below 1024 print as decimal', input: '0.1Ki', go: '102400m', rounded: '102400m' },
  { name: 'thousands use the k suffix', input: '1000', go: '1k', rounded: '1k' },
  { name: 'a JSON number 1000 becomes 1k', input: 1000, go: '1k', rounded: '1k' },
  { name: 'a number not divisible by 1000 keeps its digits', input: '1500', go: '1500', rounded: '1500' },
  { name: 'decimal exponent notation is preserved as written (Go caches the input)', input: '1e3', go: '1e3', rounded: '1e3' },
  { name: 'an upper-case exponent is echoed verbatim too', input: '1E3', go: '1E3', rounded: '1E3' },
  { name: 'Go echoes a milli-aligned fraction verbatim', input: '1.500', go: '1.500', rounded: '1.500' },
  { name: 'Go echoes a three-digit fraction verbatim', input: '1.123', go: '1.123', rounded: '1.123' },
  { name: 'Go echoes a leading plus on binary values', input: '+1Gi', go: '+1Gi', rounded: '+1Gi' },
  { name: 'a one-digit fraction is re-expressed in milli', input: '1.5', go: '1500m', rounded: '1500m' },
  { name: 'milli values stay milli', input: '100m', go: '100m', rounded: '100m' },
  { name: 'a leading dot is accepted', input: '.5', go: '500m', rounded: '500m' },
  { name: 'nano values round up to one milli', input: '1n', go: '1n', rounded: '1m' },
  { name: 'the smallest decimal fraction is one nano', input: '0.000000001', go: '1n', rounded: '1m' },
  { name: 'sub-nano values round up to nano on parse', input: '1e-20', go: '1e-9', rounded: '1e-3' },
  { name: 'micro fractions become nano', input: '1.5u', go: '1500n', rounded: '1m' },
  { name: 'negative values round away from zero', input: '-1.5m', go: '-1500u', rounded: '-2m' },
  { name: 'micro values round up to the next milli', input: '1234567u', go: '1234567u', rounded: '1235m' },
  { name: 'numbers beyond int64 precision are kept exactly', input: '12345678901234567890', go: '12345678901234567890', rounded: '12345678901234567890' },
  { name: 'exponents beyond the E suffix print without a suffix (Go quirk)', input: '1000E', go: '1', rounded: '1' },
  { name: 'binary values are clamped to the int64 maximum', input: '9Ei', go: '9223372036854775807', rounded: '9223372036854775807' },
  { name: 'a bare suffix means zero', input: 'Gi', go: '0', rounded: '0' },
  { name: 'mega stays mega', input: '3M', go: '3M', rounded: '3M' },
  { name: 'surrounding spaces are trimmed, as Quantity.UnmarshalJSON does', input: ' 1 ', go: '1', rounded: '1' },
];
for (const tc of cases) {
  test(`canonicalQuantity: ${tc.name} (${JSON.stringify(tc.input)} → ${tc.go} / ${tc.rounded})`, () => {
    assert.equal(canonicalQuantity(tc.input), tc.go);
    assert.equal(canonicalQuantity(tc.input, { roundUpToMilli: true }), tc.rounded);
  });
}

const invalid = [
  { name: 'two decimal points', input: '1.5.5' },
  { name: 'letters only', input: 'abc' },
  { name: 'digits after a binary suffix', input: '1Gi5' },
  { name: 'an exponent marker without digits', input: '1e' },
  { name: 'a binary exa suffix without a number', input: 'Ei' },
  { name: 'the empty string', input: '' },
];
for (const tc of invalid) {
  test(`canonicalQuantity rejects ${tc.name}`, () => assert.throws(() => canonicalQuantity(tc.input), QuantityParseError));
}

test('canonical output is a fixed point of parsing', () => {
  for (const tc of cases) {
    assert.equal(canonicalQuantity(tc.go), tc.go);
    assert.equal(canonicalQuantity(tc.rounded, { roundUpToMilli: true }), tc.rounded);
  }
});

// Validation (requests ≤ limits, non-negative) compares parsed values rather than canonical strings.
const comparisons = [
  { name: 'a gibibyte equals 1024 mebibytes', a: '1Gi', b: '1024Mi', sign: 0 },
  { name: 'two cores exceed 1500 millicores', a: '2', b: '1500m', sign: 1 },
  { name: 'a decimal gigabyte is less than a gibibyte', a: '1G', b: '1Gi', sign: -1 },
  { name: 'an exponent form equals its suffix form', a: '1e3', b: '1k', sign: 0 },
  { name: 'a JSON number compares like its string', a: 0.5, b: '500m', sign: 0 },
  { name: 'int64 neighbours stay distinct', a: '9223372036854775807', b: '9223372036854775806', sign: 1 },
  { name: 'a negative quantity is below zero', a: '-1m', b: '0', sign: -1 },
];
for (const tc of comparisons) {
  test(`compareQuantityValues: ${tc.name}`, () => {
    assert.equal(compareQuantityValues(parseQuantityValue(tc.a), parseQuantityValue(tc.b)), tc.sign);
  });
}

test('parseQuantityValue rejects what canonicalQuantity rejects', () => {
  for (const tc of invalid) assert.throws(() => parseQuantityValue(tc.input), QuantityParseError);
});

// Exponents as Go reads them (review N-C1): strconv.ParseInt(…, 10, 64) then int32(…), so past int64 the suffix is
// refused and within it the exponent wraps; the int32 scale arithmetic wraps too. Expected values from
// k8s.io/apimachinery v0.32.10: ParseQuantity → json.Marshal, RoundUp(Milli) → json.Marshal, MilliValue().
// Go itself needs minutes for the inputs marked slow (it expands 10^|scale|); their values are the exact ones.
const exponents: { input: string; go: string; rounded: string; milli: bigint; slowInGo?: true }[] = [
  { input: '1e-10000000', go: '1e-9', rounded: '1e-3', milli: 1n },
  { input: '1e-100000000', go: '1e-9', rounded: '1e-3', milli: 1n, slowInGo: true },
  { input: '-7e-100000000', go: '-1e-9', rounded: '-1e-3', milli: 1n, slowInGo: true },
  { input: '1e30000000', go: '1e30000000', rounded: '1e30000000', milli: 0n },
  { input: '1e30000001', go: '10e30000000', rounded: '10e30000000', milli: 0n },
  { input: '1.5e30000000', go: '1500e29999997', rounded: '1500e29999997', milli: 0n },
  { input: '1e9999999999', go: '10e1410065406', rounded: '10e1410065406', milli: 0n },
  { input: '1e-9999999999', go: '1e-9', rounded: '1e-3', milli: 1n, slowInGo: true },
  { input: '1e2147483647', go: '10e2147483646', rounded: '10e2147483646', milli: 1n },
  { input: '10e2147483647', go: '10e2147483647', rounded: '10e2147483647', milli: 10n },
  { input: '1.5e-2147483648', go: '150e2147483646', rounded: '150e2147483646', milli: 15n },
  { input: '1e4294967296', go: '1e4294967296', rounded: '1e4294967296', milli: 1000n },
  { input: '1e-9223372036854775808', go: '1e-9223372036854775808', rounded: '1e-9223372036854775808', milli: 1000n },
  { input: '0e30000000', go: '0', rounded: '0', milli: 0n },
  { input: '1234567890123456789012e5', go: '123456789012345678901200e3', rounded: '123456789012345678901200e3', milli: -4362896299906853888n },
  { input: '1E+3', go: '1E+3', rounded: '1E+3', milli: 1000000n },
  { input: '12e-10', go: '2e-9', rounded: '1e-3', milli: 1n },
  { input: '-1e-30', go: '-1e-9', rounded: '-1e-3', milli: 1n },
  { input: '1.e5', go: '100e3', rounded: '100e3', milli: 100000000n },
  { input: `1e-${'0'.repeat(10_000)}5`, go: '10e-6', rounded: '1e-3', milli: 1n },
];
for (const tc of exponents) {
  test(`exponent ${tc.input.slice(0, 40)} reads as Go's (${tc.go}, rounded ${tc.rounded}, milli ${tc.milli})${tc.slowInGo ? ', exact where Go is slow' : ''}`, () => {
    assert.equal(canonicalQuantity(tc.input), tc.go);
    assert.equal(canonicalQuantity(tc.input, { roundUpToMilli: true }), tc.rounded);
    assert.equal(milliValue(parseQuantity(tc.input)), tc.milli);
  });
}

const refusedExponents = [
  { input: '1e99999999999999999999', message: "unable to parse quantity's suffix" },
  { input: '1e9223372036854775808', message: "unable to parse quantity's suffix" },
  { input: '1ke3', message: "unable to parse quantity's suffix" },
  { input: '1Gie3', message: "unable to parse quantity's suffix" },
  { input: '1e3Ki', message: /^quantities must match the regular expression/ },
  { input: '1e3G', message: /^quantities must match the regular expression/ },
  { input: '9'.repeat(1001), message: 'quantities may have at most 1000 significant digits' },
];
for (const tc of refusedExponents) {
  test(`${tc.input.slice(0, 30)} is refused: ${String(tc.message)}`, () => {
    assert.throws(() => canonicalQuantity(tc.input), (err: Error) => err instanceof QuantityParseError && (typeof tc.message === 'string' ? err.message === tc.message : tc.message.test(err.message)));
  });
}

test('comparisons of far-apart exponents are exact without expanding them', () => {
  const v = parseQuantityValue;
  assert.equal(compareQuantityValues(v('1e30000000'), v('9'.repeat(999))), 1);
  assert.equal(compareQuantityValues(v('1e-100000000'), v('1n')), 0);
  assert.equal(compareQuantityValues(v('-1e30000000'), v('1e-30000000')), -1);
  assert.equal(compareQuantityValues(v('10e2147483647'), v('1e2147483647')), 1);
  assert.equal(compareQuantityValues(v('0e-100000000'), v('0')), 0);
  assert.equal(isWholeQuantity(v('1e30000000')), true);
  assert.equal(isWholeQuantity(v('1e-100000000')), false);
});

test('sums that would have to expand a huge exponent fail with QuantityRangeError, small ones are exact', () => {
  assert.throws(() => add(parseQuantity('1e30000000'), parseQuantity('1m')), QuantityRangeError);
  assert.throws(() => parseQuantity('1234567890123456789012e30000000'), QuantityRangeError);
  assert.equal(formatGoQuantity(add(parseQuantity('1e30000000'), parseQuantity('0'))), '1e30000000');
  assert.equal(formatGoQuantity(add(parseQuantity('1e30'), parseQuantity('1m'))), '1000000000000000000000000000000001e-3');
  assert.equal(cmp(parseQuantity('1e30000000'), parseQuantity('1e29999999')), 1);
});
