// Kubernetes resource.Quantity as Go's apimachinery (v0.30) parses and re-marshals it. The hash of a SidecarSet and
// the defaulting patch both carry quantities in Go's output form, so "what Go would print" is the contract here —
// including its quirks (a parsed string is sometimes echoed verbatim, e.g. "1.500" or "+1Gi").

import { compareScaled, digitCount, isWholeScaled, pow10, roundAwayFromZeroTo } from './quantity-scale.js';

export class QuantityParseError extends Error {
  /**
   * `message` is Go's error text for the same failure (or, past MAX_QUANTITY_DIGITS, this project's). `path` is the
   * field within the decoded object (e.g. `.spec.containers[0].resources.limits[cpu]`) where a decoder knows it.
   */
  constructor(readonly input: string, message: string, readonly path?: string) {
    super(message);
    this.name = 'QuantityParseError';
  }
}

/**
 * Significant digits a quantity may carry (leading and trailing zeros do not count). Go has no such bound, but no
 * resource amount needs more than ~30 digits, and with it every quantity operation costs a bounded number of steps
 * per input byte (BigInt parsing and printing are superlinear in the digit count). The exponent is not bounded here:
 * it is Go's int32 and is never materialised as a power of ten (quantity-scale.ts).
 */
export const MAX_QUANTITY_DIGITS = 1000;
const TOO_MANY_DIGITS = `quantities may have at most ${MAX_QUANTITY_DIGITS} significant digits`;

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** value = unscaled × 10^scale. `exactInt64` mirrors Go's int64Amount fast path, the only one that keeps `echo`. */
interface Quantity {
  unscaled: bigint;
  scale: number;
  format: Format;
  /** Go's cached string `s`: when set, MarshalJSON prints it instead of the canonical form. */
  echo?: string;
  exactInt64: boolean;
}

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const wrap32 = (n: number): number => (n | 0);
const SUFFIX_LETTERS = 'eEinumkKMGTP';
// Go's strings.TrimSpace (unicode.IsSpace), which Quantity.UnmarshalJSON applies; JS trim() differs (U+0085, U+FEFF).
// Trimmed by index: a `[…]+$` regex rescans every inner run of spaces, quadratic on "1    …    x".
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;
function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && GO_SPACE.test(s[start]!)) start++;
  while (end > start && GO_SPACE.test(s[end - 1]!)) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

interface Lexed { negative: boolean; num: string; denom: string; suffix: string; numeric: string }

/** Splits sign, integer digits (leading zeros dropped), fraction digits and suffix, like Go's parseQuantityString. */
function lex(str: string): Lexed {
  let pos = 0;
  let negative = false;
  if (str[0] === '-' || str[0] === '+') {
    negative = str[0] === '-';
    pos++;
  }
  while (str[pos] === '0') pos++;
  if (pos >= str.length) return { negative, num: '0', denom: '', suffix: '', numeric: '0' };
  const numStart = pos;
  while (isDigit(str[pos])) pos++;
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (str[pos] === '.') {
    const denomStart = ++pos;
    while (isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
  }
  const numeric = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < str.length && SUFFIX_LETTERS.includes(str[pos]!)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < str.length) throw new QuantityParseError(str, FORMAT_WRONG);
  return { negative, num, denom, suffix: str.slice(suffixStart), numeric };
}

function interpretSuffix(str: string, suffix: string): { base: 10 | 2; exponent: number; format: Format } {
  if (suffix in DECIMAL_SUFFIXES) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix]!, format: 'DecimalSI' };
  if (suffix in BINARY_SUFFIXES) return { base: 2, exponent: BINARY_SUFFIXES[suffix]!, format: 'BinarySI' };
  const exponent = suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') ? goExponent(suffix.slice(1)) : undefined;
  if (exponent !== undefined) return { base: 10, exponent, format: 'DecimalExponent' };
  throw new QuantityParseError(str, 'unable to parse quantity\'s suffix');
}

/** strconv.ParseInt(text, 10, 64) then int32(…), as Go's suffixer does: beyond int64 it fails, within it wraps. */
function goExponent(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const signed = text[0] === '-' || text[0] === '+' ? 1 : 0;
  let first = signed;
  while (first < text.length - 1 && text[first] === '0') first++;
  if (text.length - first > 19) return undefined;
  const value = BigInt((text[0] === '-' ? '-' : '') + text.slice(first));
  if (value > MAX_INT64 || value < MIN_INT64) return undefined;
  return Number(BigInt.asIntN(32, value));
}

/** Rounds unscaled×10^scale away from zero so that its scale is at least `target`. */
function roundAwayFromZero(unscaled: bigint, scale: number, target: number): { unscaled: bigint; scale: number } {
  if (scale >= target) return { unscaled, scale };
  return { unscaled: roundAwayFromZeroTo(unscaled, scale, target), scale: target };
}

/**
 * The digits of `raw` without leading and trailing zeros, and how many trailing zeros went: the value is
 * significant × 10^trailing. Linear, so a megabyte of zeros costs a scan, not a megabyte-digit BigInt.
 */
function significantDigits(input: string, raw: string): { significant: string; trailing: number } {
  let start = 0;
  while (start < raw.length && raw[start] === '0') start++;
  let end = raw.length;
  while (end > start && raw[end - 1] === '0') end--;
  if (end - start > MAX_QUANTITY_DIGITS) throw new QuantityParseError(input, TOO_MANY_DIGITS);
  return { significant: raw.slice(start, end), trailing: raw.length - end };
}

function parse(input: string): Quantity {
  const str = goTrimSpace(input);
  if (str === '') throw new QuantityParseError(input, FORMAT_WRONG);
  if (str === '0') return { unscaled: 0n, scale: 0, format: 'DecimalSI', echo: '0', exactInt64: true };
  const { negative, num, denom, suffix, numeric } = lex(str);
  const { base, exponent, format } = interpretSuffix(str, suffix);
  const sign = negative ? -1n : 1n;

  // Go's int64 fast path: exact, and the only path that may echo the input string back. The scale is Go's int32
  // `exponent - len(denom)`, wrapping as Go's does; it is kept as a number, never expanded.
  if (base === 10 && 18 - (num.length + denom.length) >= 0 && wrap32(exponent - denom.length) >= -9) {
    const scale = wrap32(exponent - denom.length);
    const shifted = num + denom;
    const echo = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0' ? str : undefined;
    return { unscaled: sign * BigInt(shifted), scale, format, echo, exactInt64: true };
  }
  if (base === 2 && denom === '' && 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 >= 0) {
    const digits = BigInt(num);
    const value = digits << BigInt(exponent);
    if (value <= MAX_INT64) {
      const echo = (digits & 7n) !== 0n ? str : undefined;
      return { unscaled: sign * value, scale: 0, format, echo, exactInt64: true };
    }
  }

  // Arbitrary-precision path: round up to nano, clamp binary values to int64, tiny binary values become decimal.
  if (!/^[+-]?[0-9]*\.?[0-9]*$/.test(numeric) || !/[0-9]/.test(numeric)) throw new QuantityParseError(input, 'unable to parse numeric part of quantity');
  const { significant, trailing } = significantDigits(input, num + denom);
  let unscaled = sign * BigInt(significant || '0');
  // inf.Dec's scale is int32 too: len(denom) + (−exponent), each step wrapping. Zero keeps no scale (Go leaves a zero
  // unrounded at any scale; only its value is ever read).
  let scale = unscaled === 0n ? 0 : -(base === 10 ? wrap32(denom.length + wrap32(-exponent)) : denom.length) + trailing;
  if (base === 2) unscaled <<= BigInt(exponent);
  if (unscaled !== 0n) ({ unscaled, scale } = roundAwayFromZero(unscaled, scale, -9));
  let fmt: Format = format;
  const magnitude = unscaled < 0n ? -unscaled : unscaled;
  if (fmt === 'BinarySI' && compareToInteger(magnitude, scale, MAX_INT64) > 0) {
    unscaled = MAX_INT64 * sign;
    scale = 0;
  }
  if (fmt === 'BinarySI' && magnitude !== 0n && compareToInteger(magnitude, scale, 1n) < 0) fmt = 'DecimalSI';
  return { unscaled, scale, format: fmt, exactInt64: false };
}

/** Sign of (magnitude×10^scale − n) for a non-negative magnitude. */
function compareToInteger(magnitude: bigint, scale: number, n: bigint): number {
  return compareScaled(magnitude, scale, n, 0);
}

// BinarySI values are at most int64 (capped on parse, and quantity-math refuses sums it would have to materialise), so
// the base-1024 rendering below works on a bounded integer; anything past BINARY_ORDER prints in decimal instead.
const BINARY_ORDER = 40;

function canonical(q: Quantity): string {
  if (q.echo !== undefined) return q.echo;
  if (q.unscaled === 0n) return '0';
  const magnitude = q.unscaled < 0n ? -q.unscaled : q.unscaled;
  if (q.format === 'BinarySI' && digitCount(magnitude) + q.scale <= BINARY_ORDER) {
    const small = compareToInteger(magnitude, q.scale, 1024n) < 0;
    if (!small && isWholeScaled(q.unscaled, q.scale)) {
      return base1024(q.scale >= 0 ? q.unscaled * pow10(q.scale) : q.unscaled / pow10(-q.scale));
    }
  }
  // Factors of ten move into the exponent (a string scan, not a division per zero), then the exponent goes down to a
  // multiple of three. Go's int64Amount does that in int32 with one adjustment step; wrapped as Go wraps.
  const text = magnitude.toString();
  let end = text.length;
  while (end > 1 && text[end - 1] === '0') end--;
  let mantissa = text.slice(0, end);
  let exponent = q.scale + (text.length - end);
  if (q.exactInt64) {
    exponent = wrap32(exponent);
    const r = exponent % 3;
    if (r === 1 || r === -2) [mantissa, exponent] = [`${mantissa}0`, wrap32(exponent - 1)];
    else if (r === 2 || r === -1) [mantissa, exponent] = [`${mantissa}00`, wrap32(exponent - 2)];
  } else {
    while (exponent % 3 !== 0) [mantissa, exponent] = [`${mantissa}0`, exponent - 1];
  }
  if (q.unscaled < 0n) mantissa = `-${mantissa}`;
  if (q.format === 'DecimalExponent') return `${mantissa}${exponent === 0 ? '' : `e${exponent}`}`;
  return `${mantissa}${DECIMAL_BY_EXPONENT.get(exponent) ?? ''}`;
}

function base1024(value: bigint): string {
  let magnitude = value < 0n ? -value : value;
  let power = 0;
  while (magnitude >= 1024n && magnitude % 1024n === 0n) {
    magnitude /= 1024n;
    power++;
  }
  return `${value < 0n ? '-' : ''}${magnitude}${BINARY_BY_POWER[power] ?? ''}`;
}

export interface CanonicalQuantityOptions {
  /** Apply the apiserver/SidecarSet defaulter's RoundUp(milli) (k8s SetDefaults_ResourceList) before printing. */
  roundUpToMilli?: boolean;
}

/**
 * The string Go's `json.Marshal` produces for a resource.Quantity decoded from `value` (a JSON string, or a JSON number
 * given as a JS number — note a JS number has lost its literal spelling, so `1e3` arrives as 1000 and prints "1k").
 * Throws QuantityParseError where Go's decoder would reject the value.
 */
export function canonicalQuantity(value: string | number, options: CanonicalQuantityOptions = {}): string {
  let q = parse(typeof value === 'number' ? String(value) : value);
  if (options.roundUpToMilli) q = roundUpToMilli(q);
  return canonical(q);
}

function roundUpToMilli(q: Quantity): Quantity {
  // Go keeps the cached string only when the int64 amount is already at milli scale or coarser.
  if (q.exactInt64 && q.scale >= -3) return q;
  return { ...roundAwayFromZero(q.unscaled, q.scale, -3), format: q.format, exactInt64: q.exactInt64 };
}

/** A quantity's exact value, unscaled × 10^scale — what validation compares (e.g. requests ≤ limits). */
export interface QuantityValue {
  readonly unscaled: bigint;
  readonly scale: number;
}

/**
 * The exact value Go's resource.ParseQuantity gives `value` (binary suffixes included, so "1Gi" equals "1024Mi").
 * Throws QuantityParseError where Go would reject it.
 */
export function parseQuantityValue(value: string | number): QuantityValue {
  const { unscaled, scale } = parse(typeof value === 'number' ? String(value) : value);
  return { unscaled, scale };
}

/** Sign of a − b, compared exactly in bigints: floats would blur e.g. "9223372036854775807" and "9223372036854775806". */
export function compareQuantityValues(a: QuantityValue, b: QuantityValue): -1 | 0 | 1 {
  return compareScaled(a.unscaled, a.scale, b.unscaled, b.scale);
}

/** Whether the value is a whole number (validation's "must be an integer"), without expanding its scale. */
export const isWholeQuantity = (v: QuantityValue): boolean => isWholeScaled(v.unscaled, v.scale);

/** Go's resource.Quantity as this module holds it, for the arithmetic in quantity-math.ts. */
export type GoQuantity = Quantity;
export type QuantityFormat = Format;
/** resource.ParseQuantity: the quantity itself (value, format, cached string). Throws QuantityParseError as Go does. */
export const parseGoQuantity = (value: string): GoQuantity => parse(value);
/** Quantity.String(): the cached string if any, else the canonical form. */
export const formatGoQuantity = (q: GoQuantity): string => canonical(q);
