// resource.Quantity arithmetic as Go's apimachinery does it (Add, Neg, Cmp, MilliValue, SetMilli, NewMilliQuantity),
// for resourcesPolicy expressions (spec/openkruise-v1.9.md §3.4–3.5). A quantity is either Go's int64Amount
// (`exactInt64`, value × 10^scale in an int64) or an inf.Dec; the two round differently in MilliValue and overflow
// differently, and upstream's results carry those quirks, so both are kept apart here. Values are exact bigints.
import type { GoQuantity, QuantityFormat } from './quantity.js';
import { parseGoQuantity, QuantityParseError } from './quantity.js';
import { compareScaled, pow10 } from './quantity-scale.js';

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);
const fitsInt64 = (v: bigint): boolean => v >= MIN_INT64 && v <= MAX_INT64;

/**
 * How far arithmetic may shift a value's digits (10^n built to align two scales). Go's inf.Dec shifts without limit,
 * but past this its results are numbers no resource can hold, and printing them costs Go time quadratic in the shift;
 * here such an operation fails with QuantityRangeError instead of building a megabyte-digit number (review N-C1).
 */
export const MAX_ARITH_SHIFT = 1024;

/** A quantity arithmetic would have to expand beyond MAX_ARITH_SHIFT digits (a QuantityParseError for its callers). */
export class QuantityRangeError extends QuantityParseError {
  constructor(input: string) {
    super(input, `quantity ${input} is too large for arithmetic (more than 10^${MAX_ARITH_SHIFT})`);
    this.name = 'QuantityRangeError';
  }
}

const shifted = (q: GoQuantity, by: number): bigint => {
  if (q.unscaled === 0n) return 0n;
  if (by > MAX_ARITH_SHIFT) throw new QuantityRangeError(formatValue(q));
  return q.unscaled * pow10(by);
};
const formatValue = (q: GoQuantity): string => `${q.unscaled}e${q.scale}`;

/** resource.ParseQuantity; an inf.Dec result is held at nano scale, as Go's Round(Nano) leaves it. */
export function parseQuantity(text: string): GoQuantity {
  const q = parseGoQuantity(text);
  if (q.exactInt64 || q.unscaled === 0n || q.scale <= -9) return q;
  return { ...q, unscaled: shifted(q, q.scale + 9), scale: -9 };
}

/** resource.NewMilliQuantity(milli, format). */
export const milliQuantity = (milli: bigint, format: QuantityFormat = 'DecimalSI'): GoQuantity => ({ unscaled: milli, scale: -3, format, exactInt64: true });
/** resource.NewQuantity(value, format). */
export const intQuantity = (value: bigint, format: QuantityFormat = 'DecimalSI'): GoQuantity => ({ unscaled: value, scale: 0, format, exactInt64: true });

/** Go's int64(f) on amd64: truncation toward zero; NaN and out-of-range values give the minimum int64. */
export function int64FromFloat(f: number): bigint {
  if (!Number.isFinite(f) || f >= 2 ** 63 || f < -(2 ** 63)) return MIN_INT64;
  return BigInt(Math.trunc(f));
}

/** Both values at the smaller scale. Throws QuantityRangeError rather than shift a non-zero value past the bound. */
function align(a: GoQuantity, b: GoQuantity): [bigint, bigint, number] {
  const scale = Math.min(a.scale, b.scale);
  return [shifted(a, a.scale - scale), shifted(b, b.scale - scale), scale];
}

/** int64Amount.Add fails once an operand leaves int64 at the common scale: beyond 19 digits of shift it always does. */
const INT64_DIGITS = 19;

/** Quantity.Add: a + b. The format becomes b's when a is zero; the cached string is dropped. */
export function add(a: GoQuantity, b: GoQuantity): GoQuantity {
  const format = a.unscaled === 0n ? b.format : a.format;
  if (a.exactInt64 && b.exactInt64) {
    if (b.unscaled === 0n) return { unscaled: a.unscaled, scale: a.scale, format, exactInt64: true };
    if (a.unscaled === 0n) return { unscaled: b.unscaled, scale: b.scale, format, exactInt64: true };
  }
  if (a.exactInt64 && b.exactInt64 && Math.abs(a.scale - b.scale) <= INT64_DIGITS) {
    const [x, y, scale] = align(a, b);
    // int64Amount.Add fails (and Go falls back to inf.Dec) when an operand or the sum leaves int64 at the common scale.
    if (fitsInt64(x) && fitsInt64(y) && fitsInt64(x + y)) return { unscaled: x + y, scale, format, exactInt64: true };
  }
  const [x, y, scale] = align(a, b);
  return { unscaled: x + y, scale, format, exactInt64: false };
}

/** Quantity.Neg (an int64 minimum stays itself, as Go's negation wraps). */
export function neg(a: GoQuantity): GoQuantity {
  return { unscaled: a.exactInt64 ? wrap(-a.unscaled) : -a.unscaled, scale: a.scale, format: a.format, exactInt64: a.exactInt64 };
}

/** Quantity.Cmp: the sign of a − b (exact, by order of magnitude first: no scale is expanded). */
export function cmp(a: GoQuantity, b: GoQuantity): -1 | 0 | 1 {
  return compareScaled(a.unscaled, a.scale, b.unscaled, b.scale);
}

export const sign = (a: GoQuantity): -1 | 0 | 1 => (a.unscaled === 0n ? 0 : a.unscaled > 0n ? 1 : -1);

/** Quantity.SetMilli on a copy of `a`: the value becomes `milli`/1000, the format stays. */
export const withMilli = (a: GoQuantity, milli: bigint): GoQuantity => milliQuantity(milli, a.format);

/** Quantity.MilliValue (ScaledValue(Milli)), with Go's rounding and overflow behaviour for each representation. */
export function milliValue(a: GoQuantity): bigint {
  // Go's Scale is int32: near 2^31 the shift `scale + 3` wraps negative, and positiveScaleInt64 then returns the value.
  if (a.exactInt64) return a.scale < -3 ? divideAwayFromZero(a.unscaled, -3 - a.scale) : positiveScaleInt64(a.unscaled, (a.scale + 3) | 0);
  return decScaledValue(a.unscaled, -a.scale - 3);
}

/** negativeScaleInt64: value / 10^digits, rounded away from zero. */
function divideAwayFromZero(value: bigint, digits: number): bigint {
  const d = pow10(digits);
  const q = value / d;
  return q * d === value ? q : q + (value > 0n ? 1n : -1n);
}

/**
 * positiveScaleInt64: the fixed multipliers wrap on overflow; the digit-by-digit loop gives 0. A non-zero int64 leaves
 * int64 within 19 steps, so the loop is bounded; zero (Go loops `digits` times, e.g. 2^31 for "0e2147483644") is 0.
 */
function positiveScaleInt64(value: bigint, digits: number): bigint {
  if (digits === 0) return value;
  if (digits === 1 || digits === 2 || digits === 3 || digits === 6 || digits === 9) {
    if (value === MIN_INT64) return 0n;
    return wrap(value * pow10(digits));
  }
  if (value === 0n) return 0n;
  let v = value;
  for (let i = 0; i < digits; i++) {
    if (v === MIN_INT64 || !fitsInt64(v * 10n)) return 0n;
    v *= 10n;
  }
  return v;
}

/** scaledValue for an inf.Dec: `dif` > 0 divides rounding "up" (Go adds one to a truncated or floored quotient). */
function decScaledValue(unscaled: bigint, dif: number): bigint {
  if (dif === 0) return wrap(unscaled);
  if (dif < 0) {
    const factor = -dif <= 18 ? pow10(-dif) : MIN_INT64; // int64(math.Pow10(n)) on amd64
    return wrap(wrap(unscaled) * factor);
  }
  if (dif > MAX_ARITH_SHIFT) throw new QuantityRangeError(`${unscaled}e${-dif - 3}`);
  const divisor = pow10(dif);
  if (unscaled < MAX_INT64 && dif < 19) {
    const u = wrap(unscaled);
    const q = u / divisor;
    return u % divisor !== 0n ? wrap(q + 1n) : q;
  }
  // big.Int.DivMod is Euclidean: for a positive divisor the quotient is the floor.
  let q = unscaled / divisor;
  let r = unscaled % divisor;
  if (r < 0n) {
    q -= 1n;
    r += divisor;
  }
  return r !== 0n ? wrap(wrap(q) + 1n) : wrap(q);
}
