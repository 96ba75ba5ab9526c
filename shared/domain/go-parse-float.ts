// Go strconv.ParseFloat(s, 64): which strings it reads and the error text it gives otherwise. OpenKruise v1.9.0 reads
// percentage strings ("12.5%", "1e1%") through it (pkg/util GetScaledValueFromIntOrPercent), so its accepted forms —
// decimal with exponent, "inf"/"infinity"/"nan" in any case, hexadecimal mantissa with a binary exponent and "_"
// separators after a base prefix — decide what the CloneSet webhook admits.
import { goQuote } from './resources-policy/go-quote.js';

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
// Underscores only between digits ("0x_1p0" is accepted, as strconv's underscoreOK allows after the prefix).
const HEX = /^([+-]?)0[xX]((?:_?[0-9a-fA-F])*)(?:\.((?:[0-9a-fA-F]_?)*))?[pP]([+-]?\d+)$/;
const SPECIAL = /^(?:([+-]?)(?:inf|infinity)|nan)$/i;

export type ParsedFloat = { value: number } | { error: string };

function hexValue(sign: string, int: string, frac: string, exp: string): number | undefined {
  const i = int.replaceAll('_', '');
  const f = frac.replaceAll('_', '');
  if (i === '' && f === '') return undefined;
  let mantissa = 0;
  for (const d of i + f) mantissa = mantissa * 16 + parseInt(d, 16);
  const v = mantissa * 2 ** (Number(exp) - 4 * f.length);
  return sign === '-' ? -v : v;
}

export function goParseFloat(s: string): ParsedFloat {
  const syntax = { error: `strconv.ParseFloat: parsing ${goQuote(s)}: invalid syntax` };
  let v: number | undefined;
  const special = SPECIAL.exec(s);
  if (special) return { value: /nan/i.test(s) ? NaN : special[1] === '-' ? -Infinity : Infinity };
  if (DECIMAL.test(s)) v = Number(s);
  else {
    const hex = HEX.exec(s);
    if (hex) v = hexValue(hex[1]!, hex[2] ?? '', hex[3] ?? '', hex[4]!);
  }
  if (v === undefined) return syntax;
  // Go returns ±Inf with a range error where the value does not fit a float64.
  if (!Number.isFinite(v)) return { error: `strconv.ParseFloat: parsing ${goQuote(s)}: value out of range` };
  return { value: v };
}

/** Go int(f) on amd64: values outside int64 (and NaN, ±Inf) become math.MinInt64. Returned as a bigint. */
export function goFloatToInt(f: number): bigint {
  if (!Number.isFinite(f) || f >= 2 ** 63 || f < -(2 ** 63)) return -(2n ** 63n);
  return BigInt(Math.trunc(f));
}
