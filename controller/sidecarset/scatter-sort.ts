// updateStrategy.scatterStrategy (kruise pkg/util/updatesort/scatter_sort.go): spread the pods carrying each
// `key=value` evenly through the update order instead of updating them back to back.
import type { Pod } from '../../shared/api/meta.js';

export interface ScatterTerm { key: string; value: string }

const labelsOf = (pod: Pod | undefined) => pod?.metadata?.labels ?? {};
const termId = (t: ScatterTerm) => `${t.key}:${t.value}`;

/** `key=*` terms expanded into one term per value found on the pods, duplicates dropped, order kept. */
export function expandScatterTerms(terms: readonly ScatterTerm[], pods: readonly Pod[]): ScatterTerm[] {
  const out: ScatterTerm[] = [];
  const add = (t: ScatterTerm) => { if (!out.some((o) => o.key === t.key && o.value === t.value)) out.push(t); };
  for (const term of terms) {
    if (term.value !== '*') { add(term); continue; }
    for (const pod of pods) {
      const v = labelsOf(pod)[term.key];
      if (v !== undefined) add({ key: term.key, value: v });
    }
  }
  return out;
}

/** With several terms, the ones matched by more waiting pods scatter first (stable by first appearance). */
function termsByCount(terms: readonly ScatterTerm[], pods: readonly (Pod | undefined)[], indexes: readonly number[]): ScatterTerm[] {
  if (terms.length === 1) return [...terms];
  const counts = new Map<string, number>();
  const found: ScatterTerm[] = [];
  for (const term of terms) {
    for (const i of indexes) {
      if (labelsOf(pods[i])[term.key] !== term.value) continue;
      const id = termId(term);
      if (!counts.has(id)) found.push({ key: term.key, value: term.value });
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return found.map((t, i) => ({ t, i, n: counts.get(termId(t))! })).sort((a, b) => b.n - a.n || a.i - b.i).map((x) => x.t);
}

interface Group { groupNum: number; matchedSize: number; unmatchedSize: number; unmatchedRemainder: number }

function group(matched: number, unmatched: number): Group {
  const groupNum = Math.min(matched, unmatched);
  // Go's math.Round: halves away from zero; the operands are positive, so Math.round agrees.
  return { groupNum, matchedSize: Math.round(matched / groupNum), unmatchedSize: Math.round(unmatched / groupNum), unmatchedRemainder: 0 };
}

/** calculateGroupByDensity; ratios compared in float32 as upstream does. */
function groupByDensity(totalMatched: number, totalUnmatched: number, updateMatched: number, updateUnmatched: number): Group {
  const total = group(totalMatched, totalUnmatched);
  const update = group(updateMatched, updateUnmatched);
  if (Math.fround(Math.fround(totalUnmatched) / Math.fround(totalMatched)) >= Math.fround(Math.fround(updateUnmatched) / Math.fround(updateMatched))) return update;
  const byMatched = Math.trunc(updateMatched / total.matchedSize);
  const byUnmatched = Math.trunc(updateUnmatched / total.unmatchedSize);
  const groupNum = byMatched < byUnmatched ? byMatched : byUnmatched;
  return { groupNum, matchedSize: total.matchedSize, unmatchedSize: total.unmatchedSize, unmatchedRemainder: updateUnmatched - groupNum * total.unmatchedSize };
}

function scatterByTerm(term: ScatterTerm, pods: readonly (Pod | undefined)[], indexes: readonly number[]): number[] {
  const matched: number[] = [];
  const unmatched: number[] = [];
  for (const i of indexes) (labelsOf(pods[i])[term.key] === term.value ? matched : unmatched).push(i);
  if (matched.length <= 1 || unmatched.length <= 1) return [...indexes];
  let totalMatched = 0;
  let totalUnmatched = 0;
  for (const pod of pods) {
    if (!pod) continue;
    if (labelsOf(pod)[term.key] === term.value) totalMatched++;
    else totalUnmatched++;
  }

  // The last matched pod always goes last.
  const last = matched.pop()!;
  totalMatched--;
  const g = groupByDensity(totalMatched, totalUnmatched, matched.length, unmatched.length);
  // Positions into matched/unmatched rather than slices: one pass however many groups there are.
  const out: number[] = [];
  let m = 0;
  let u = 0;
  if (g.unmatchedRemainder > 0) {
    for (; u < g.unmatchedRemainder && u < unmatched.length; u++) out.push(unmatched[u]!);
  }
  const take = (src: readonly number[], from: number, size: number): number => {
    const end = Math.min(src.length, from + size);
    for (let i = from; i < end; i++) out.push(src[i]!);
    return end;
  };
  for (let i = 0; i < g.groupNum; i++) {
    m = take(matched, m, g.matchedSize);
    u = take(unmatched, u, g.unmatchedSize);
  }
  for (; m < matched.length; m++) out.push(matched[m]!);
  for (; u < unmatched.length; u++) out.push(unmatched[u]!);
  out.push(last);
  return out;
}

/** `indexes` (into `pods`) reordered so the pods of each (already expanded) term are spread out. */
export function scatterSort(terms: readonly ScatterTerm[], pods: readonly (Pod | undefined)[], indexes: readonly number[]): number[] {
  if (terms.length === 0 || indexes.length <= 1) return [...indexes];
  let out = [...indexes];
  for (const term of termsByCount(terms, pods, indexes)) out = scatterByTerm(term, pods, out);
  return out;
}
