// Exact arithmetic on unscaled × 10^scale values without ever building 10^|scale| (review N-C1). A quantity's scale is
// Go's int32 (up to ±2^31), so `10n ** scale` may be a billion-digit number; every helper here first reasons about the
// order of magnitude (digit count + scale) and only materialises a power of ten that is bounded by the digit counts of
// the operands, which are bounded by their input text (MAX_QUANTITY_DIGITS).

/**
 * Digits of the powers of ten built by quantity code so far, in this process: a deterministic measure of quantity
 * work for the cost fuzzer (webhook/fuzz), which checks it grows at most linearly with the input. Every power of ten
 * of the quantity modules goes through pow10.
 */
let digitsBuilt = 0;
export const quantityDigitsBuilt = (): number => digitsBuilt;

/** 10^n for n ≥ 0, counted in quantityDigitsBuilt. */
export function pow10(n: number): bigint {
  digitsBuilt += n + 1;
  return 10n ** BigInt(n);
}

/** Digits of |v| (1 for 0). Linear in the digits of v, which callers keep bounded. */
export function digitCount(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

const abs = (v: bigint): bigint => (v < 0n ? -v : v);
const sign = (v: bigint): -1 | 0 | 1 => (v === 0n ? 0 : v > 0n ? 1 : -1);

/**
 * Sign of a − b for a = ua × 10^sa and b = ub × 10^sb. When the orders of magnitude differ the answer follows from
 * them; when they are equal the scales differ by at most the digit counts, so aligning them stays small.
 */
export function compareScaled(ua: bigint, sa: number, ub: bigint, sb: number): -1 | 0 | 1 {
  const signA = sign(ua);
  const signB = sign(ub);
  if (signA !== signB) return signA > signB ? 1 : -1;
  if (signA === 0) return 0;
  const orderA = digitCount(ua) + sa;
  const orderB = digitCount(ub) + sb;
  if (orderA !== orderB) return ((orderA > orderB ? 1 : -1) * signA) as -1 | 1;
  const scale = Math.min(sa, sb);
  const x = abs(ua) * pow10(sa - scale);
  const y = abs(ub) * pow10(sb - scale);
  return ((x === y ? 0 : x > y ? 1 : -1) * signA) as -1 | 0 | 1;
}

/**
 * u × 10^scale rounded away from zero to scale `target` (Go's inf.RoundUp), for `scale` < `target`. When the shift is
 * at least the digit count of u, every digit is dropped and the result is ±1 at `target`.
 */
export function roundAwayFromZeroTo(u: bigint, scale: number, target: number): bigint {
  if (u === 0n) return 0n;
  const shift = target - scale;
  if (shift > digitCount(u)) return u < 0n ? -1n : 1n;
  const divisor = pow10(shift);
  const quotient = u / divisor;
  return quotient * divisor === u ? quotient : quotient + (u < 0n ? -1n : 1n);
}

/** Whether u × 10^scale is a whole number (scale < 0 looks only at the last −scale digits). */
export function isWholeScaled(u: bigint, scale: number): boolean {
  if (scale >= 0 || u === 0n) return true;
  if (-scale > digitCount(u)) return false;
  return u % pow10(-scale) === 0n;
}
