// Just enough resource.Quantity parsing to compare a request with its limit (k8s "requests ≤ limits").
const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const quantityRe = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** The quantity's value as a float, or undefined if it does not parse. Float precision is fine for ≤ comparisons here. */
export function parseQuantity(q: string | number | undefined): number | undefined {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return undefined;
  const m = quantityRe.exec(q.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix in binary) return n * binary[suffix]!;
  if (suffix in decimal) return n * decimal[suffix]!;
  return n * 10 ** Number(suffix.slice(1));
}
