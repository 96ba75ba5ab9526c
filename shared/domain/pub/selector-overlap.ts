// IsSelectorLooseOverlap (spec/availability-guards.md §2, end): two PUB selectors conflict only when they name the
// same label keys and, key by key, some label value could satisfy both requirements.
import type { LabelSelector } from '../../api/meta.js';

interface Req { op: string; values: readonly string[] }

function requirements(s: LabelSelector): Map<string, Req> {
  const out = new Map<string, Req>();
  for (const e of s.matchExpressions ?? []) out.set(e.key, { op: e.operator, values: e.values ?? [] });
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) out.set(k, { op: 'In', values: [v] });
  return out;
}

const containsAll = (outer: readonly string[], inner: readonly string[]) => { const s = new Set(outer); return inner.every((v) => s.has(v)); };

function pairOverlaps(a: Req, b: Req): boolean {
  switch (a.op) {
    case 'In':
      if (b.op === 'In') { const s = new Set(a.values); return b.values.some((v) => s.has(v)); }
      if (b.op === 'Exists') return true;
      if (b.op === 'NotIn') return !containsAll(b.values, a.values);
      return false;
    case 'Exists':
      return b.op === 'In' || b.op === 'NotIn' || b.op === 'Exists';
    case 'NotIn':
      if (b.op === 'Exists' || b.op === 'DoesNotExist' || b.op === 'NotIn') return true;
      if (b.op === 'In') return !containsAll(a.values, b.values);
      return false;
    case 'DoesNotExist':
      return b.op === 'DoesNotExist' || b.op === 'NotIn';
    default:
      return false;
  }
}

function oneWay(x: Map<string, Req>, y: Map<string, Req>): boolean {
  if (x.size !== y.size) return false;
  for (const [k, r] of x) {
    const o = y.get(k);
    if (!o || !pairOverlaps(r, o)) return false;
  }
  return true;
}

export function isSelectorLooseOverlap(a: LabelSelector, b: LabelSelector): boolean {
  const x = requirements(a);
  const y = requirements(b);
  return oneWay(x, y) && oneWay(y, x);
}
