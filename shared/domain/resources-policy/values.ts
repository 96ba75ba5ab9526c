// The calculator's values and operations (spec/openkruise-v1.9.md §3.4): a value is a float64 Number or a Kubernetes
// Quantity. Operations report an error by returning null and setting the evaluation's last error, as upstream's
// grammar actions do; a null operand makes the result null without a new error.
import { add, cmp, int64FromFloat, milliQuantity, milliValue, neg, withMilli } from '../quantity-math.js';
import type { GoQuantity } from '../quantity.js';

export type Value = { readonly kind: 'number'; readonly n: number } | { readonly kind: 'quantity'; readonly q: GoQuantity };
export type Result = Value | null;

export const num = (n: number): Value => ({ kind: 'number', n });
export const qty = (q: GoQuantity): Value => ({ kind: 'quantity', q });

/** Where an operation records its failure; the last one recorded wins, as upstream's calc.lastError. */
export interface ErrorSink {
  fail(message: string): null;
}

/** A Number as a Quantity: value × 1000 truncated to milli-units, DecimalSI. */
const toQuantity = (v: Value): GoQuantity => (v.kind === 'quantity' ? v.q : milliQuantity(int64FromFloat(v.n * 1000)));

export function plus(a: Result, b: Result): Result {
  if (!a || !b) return null;
  if (a.kind === 'number' && b.kind === 'number') return num(a.n + b.n);
  return qty(add(toQuantity(a), toQuantity(b)));
}

export function minus(a: Result, b: Result): Result {
  if (!a || !b) return null;
  if (a.kind === 'number' && b.kind === 'number') return num(a.n - b.n);
  return qty(add(toQuantity(a), neg(toQuantity(b))));
}

/** Quantity × Number keeps the quantity's format, at milli precision truncated toward zero. */
const scaled = (q: GoQuantity, by: (milli: number) => number) => qty(withMilli(q, int64FromFloat(by(Number(milliValue(q))))));

export function times(a: Result, b: Result, sink: ErrorSink): Result {
  if (!a || !b) return null;
  if (a.kind === 'quantity' && b.kind === 'quantity') return sink.fail('multiplication of two quantities');
  if (a.kind === 'quantity') return scaled(a.q, (m) => m * (b as { n: number }).n);
  if (b.kind === 'quantity') return scaled(b.q, (m) => m * a.n);
  return num(a.n * b.n);
}

export function divide(a: Result, b: Result, sink: ErrorSink): Result {
  if (!a || !b) return null;
  if (b.kind === 'quantity') return sink.fail('division by quantity');
  if (b.n === 0) return sink.fail('division by zero');
  if (a.kind === 'quantity') return scaled(a.q, (m) => m / b.n);
  return num(a.n / b.n);
}

export function negate(a: Result): Result {
  if (!a) return null;
  return a.kind === 'quantity' ? qty(neg(a.q)) : num(-a.n);
}

/**
 * max/min of two values. Ties go to the first. With one Quantity the Number is converted and the result is a
 * Quantity; the winning operand is returned as it is (a literal keeps its spelling, `max(40m, 20)` = `20`).
 */
export function extreme(which: 'max' | 'min', a: Value, b: Value): Value {
  if (a.kind === 'number' && b.kind === 'number') return (which === 'max' ? a.n >= b.n : a.n <= b.n) ? a : b;
  const x = toQuantity(a);
  const y = toQuantity(b);
  const c = cmp(x, y);
  return (which === 'max' ? c >= 0 : c <= 0) ? qty(x) : qty(y);
}
