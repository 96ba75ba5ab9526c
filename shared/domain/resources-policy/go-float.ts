// Go's float64 parsing and %g printing as the calculator uses them (spec/openkruise-v1.9.md §3.4).

// strconv.ParseFloat's decimal syntax (the lexer never yields hex, inf or nan spellings, nor underscores).
const DECIMAL_FLOAT = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/**
 * A NUMBER literal's value as upstream computes it: a trailing `%` divides by 100; what ParseFloat rejects is
 * silently 0 (`50x`, `1e`); an out-of-range literal is ±Inf, but 0 with `%` (that path returns 0 on any error).
 */
export function parseGoFloat(text: string): number {
  const percent = text.endsWith('%');
  const body = percent ? text.slice(0, -1) : text;
  if (!DECIMAL_FLOAT.test(body)) return 0;
  const n = Number(body);
  if (!percent) return n;
  return Number.isFinite(n) ? n / 100 : 0;
}

/** fmt's %g for a float64: shortest digits; exponent form (two digits at least) below 1e-4 or from 1e6 on. */
export function formatGoFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  // strconv's 'g' with the shortest precision decides with precision 6: %e when exp < -4 || exp >= 6.
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}
