import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalQuantity, compareQuantityValues, parseQuantityValue, QuantityParseError } from './quantity.js';

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
