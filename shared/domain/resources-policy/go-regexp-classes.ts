// Character classes of Go's regexp syntax: the POSIX and Perl class tables, simple escapes and case folding.
/** Whether a code point belongs to a class (or matches a single-character node). */
export type CodePointTest = (cp: number) => boolean;

export type Range = readonly [number, number];
export const MAX_CP = 0x10ffff;
export const POSIX_CLASSES: Record<string, Range[]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]], alpha: [[0x41, 0x5a], [0x61, 0x7a]], ascii: [[0, 0x7f]],
  blank: [[9, 9], [0x20, 0x20]], cntrl: [[0, 0x1f], [0x7f, 0x7f]], digit: [[0x30, 0x39]], graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]], print: [[0x20, 0x7e]], punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[9, 13], [0x20, 0x20]], upper: [[0x41, 0x5a]], word: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};
export const PERL_CLASSES: Record<string, Range[]> = {
  d: POSIX_CLASSES.digit!, s: [[9, 10], [12, 13], [0x20, 0x20]], w: POSIX_CLASSES.word!,
};
export const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };


export const inRanges = (ranges: readonly Range[], cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

/**
 * Whether a and b fold together: JavaScript's `u`+`i` matching canonicalizes by Unicode simple case folding, whose
 * equivalence classes are Go's fold orbits (unicode.SimpleFold), so a back-reference compares exactly that.
 */
const SAME_FOLD = /^([\s\S])\1$/iu;
export const sameFold = (a: number, b: number): boolean => a === b || SAME_FOLD.test(String.fromCodePoint(a) + String.fromCodePoint(b));

/**
 * Case variants of a code point in its fold orbit: those upper/lower-casing reaches (one code point each), kept only
 * when they truly fold together (so `ı` is not `I`). Rare orbit members casing cannot reach (U+212A from `k`, `ſ`
 * from `s`) are missed.
 */
export function caseVariants(cp: number): number[] {
  const out = new Set([cp]);
  // A Set iterates over members added while iterating: `ſ` → `S` → `s`.
  for (const c of out) {
    const ch = String.fromCodePoint(c);
    for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
      const x = v.codePointAt(0)!;
      if ([...v].length === 1 && !out.has(x) && sameFold(cp, x)) out.add(x);
    }
  }
  return [...out];
}

export function folded(test: CodePointTest): CodePointTest {
  return (cp) => caseVariants(cp).some(test);
}
