// Go regexp syntax (RE2 with Perl flags, as regexp.Compile reads it) parsed into a small tree, refusing what Go
// refuses with Go's error code and offending text. Used for targetContainersNameRegex; go-regexp.ts matches the tree.

import { folded, inRanges, sameFold, MAX_CP, PERL_CLASSES, POSIX_CLASSES, SIMPLE_ESCAPES, type CodePointTest, type Range } from './go-regexp-classes.js';
import { unicodeClass } from './go-regexp-unicode.js';

export type { CodePointTest } from './go-regexp-classes.js';

export type Node =
  | { t: 'char'; test: CodePointTest }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number /* -1: unbounded */ }
  | { t: 'assert'; kind: 'beginText' | 'endText' | 'beginLine' | 'endLine' | 'wordBoundary' | 'notWordBoundary' };

export class RegexpSyntaxError extends Error {
  constructor(readonly code: string, readonly expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
    this.name = 'RegexpSyntaxError';
  }
}

/** Go's limit on nesting depth. */
const MAX_NESTING = 1000;
/** Go's limit on a repetition count, also applied to nested counts multiplied together. */
export const MAX_REPEAT = 1000;

interface Flags { i: boolean; m: boolean; s: boolean }

const single = (cp: number): Node => ({ t: 'char', test: (c) => c === cp });

export class Parser {
  private pos = 0;
  private readonly chars: string[];
  private readonly cps: number[];

  constructor(private readonly src: string) {
    this.chars = [...src];
    this.cps = this.chars.map((c) => c.codePointAt(0)!);
  }

  private text(from: number, to = this.pos): string {
    return this.chars.slice(from, to).join('');
  }

  private peek(offset = 0): string | undefined {
    const cp = this.cps[this.pos + offset];
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }

  parse(): Node {
    const node = this.alternation({ i: false, m: false, s: false }, 0);
    if (this.pos < this.cps.length) throw new RegexpSyntaxError('unexpected )', this.src);
    return node;
  }

  /** Until an unmatched `)` (left for the caller) or the end. */
  private alternation(outer: Flags, depth: number): Node {
    const f = { ...outer };
    const branches: Node[][] = [[]];
    let branch = branches[0]!;
    let lastRepeat = -1;
    while (this.pos < this.cps.length) {
      const c = this.peek()!;
      if (c === ')') {
        if (depth === 0) throw new RegexpSyntaxError('unexpected )', this.src);
        break;
      }
      if (c === '|') {
        this.pos++;
        branches.push((branch = []));
        lastRepeat = -1;
        continue;
      }
      const repeatEnd = c === '{' ? this.repeatEnd() : c === '*' || c === '+' || c === '?' ? this.pos + 1 : -1;
      if (repeatEnd >= 0) {
        const start = this.pos;
        const op = this.text(start, repeatEnd);
        this.pos = repeatEnd;
        if (this.peek() === '?') this.pos++;
        if (lastRepeat >= 0) throw new RegexpSyntaxError('invalid nested repetition operator', this.text(lastRepeat));
        const target = branch.pop();
        if (!target) throw new RegexpSyntaxError('missing argument to repetition operator', this.text(start));
        branch.push(this.repetition(target, op));
        lastRepeat = start;
        continue;
      }
      lastRepeat = -1;
      if (c === '(') {
        const group = this.group(f, depth);
        if (group) branch.push(group);
        continue;
      }
      branch.push(this.atom(f));
    }
    if (depth > 0 && this.pos >= this.cps.length) throw new RegexpSyntaxError('missing closing )', this.src);
    const alts = branches.map((items): Node => (items.length === 1 ? items[0]! : { t: 'cat', items }));
    return alts.length === 1 ? alts[0]! : { t: 'alt', items: alts };
  }

  private repetition(node: Node, op: string): Node {
    if (op === '*') return { t: 'rep', node, min: 0, max: -1 };
    if (op === '+') return { t: 'rep', node, min: 1, max: -1 };
    if (op === '?') return { t: 'rep', node, min: 0, max: 1 };
    const [lo, hi] = op.slice(1, -1).split(',');
    const min = Number(lo);
    const max = hi === undefined ? min : hi === '' ? -1 : Number(hi);
    if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && max < min) || (max === -1 ? min : max) * innerRepeat(node) > MAX_REPEAT) {
      throw new RegexpSyntaxError('invalid repeat count', op);
    }
    return { t: 'rep', node, min, max };
  }

  /** End index of a valid `{n}`, `{n,}` or `{n,m}` at pos, or -1 (then `{` is a literal). */
  private repeatEnd(): number {
    const m = /^\{[0-9]+(?:,[0-9]*)?\}/.exec(this.text(this.pos, Math.min(this.cps.length, this.pos + 32)));
    return m ? this.pos + m[0].length : -1;
  }

  /** A group, or null for a flag group `(?i)` (which changes `f` for the rest of the enclosing group). */
  private group(f: Flags, depth: number): Node | null {
    // Go's parser refuses nesting past 1000 levels (maxHeight) with this code.
    if (depth >= MAX_NESTING) throw new RegexpSyntaxError('expression nests too deeply', this.src);
    const start = this.pos;
    this.pos++;
    if (this.peek() !== '?') return this.groupBody(f, depth);
    const named = this.peek(1) === 'P' && this.peek(2) === '<' ? 3 : this.peek(1) === '<' ? 2 : 0;
    if (named) {
      const rest = this.text(start, this.cps.length);
      const end = rest.indexOf('>');
      // Lookbehinds end up here too, as in Go: `(?<=a)` is an invalid named capture.
      if (end < 0) throw new RegexpSyntaxError('invalid named capture', rest);
      if (!/^[A-Za-z0-9_]+$/.test(rest.slice(named + 1, end))) throw new RegexpSyntaxError('invalid named capture', rest.slice(0, end + 1));
      this.pos = start + [...rest.slice(0, end + 1)].length;
      return this.groupBody(f, depth);
    }
    const next = { ...f };
    let negate = false;
    let sawFlag = false;
    for (let i = this.pos + 1; i < this.cps.length; i++) {
      const ch = String.fromCodePoint(this.cps[i]!);
      if (ch === 'i' || ch === 'm' || ch === 's' || ch === 'U') {
        if (ch !== 'U') next[ch] = !negate;
        sawFlag = true;
      } else if (ch === '-' && !negate) {
        negate = true;
        sawFlag = false;
      } else if ((ch === ')' || ch === ':') && (sawFlag || !negate)) {
        this.pos = i + 1;
        if (ch === ':') return this.groupBody(next, depth);
        Object.assign(f, next);
        return null;
      } else {
        throw new RegexpSyntaxError('invalid or unsupported Perl syntax', this.text(start, i + 1));
      }
    }
    throw new RegexpSyntaxError('missing closing )', this.src);
  }

  private groupBody(f: Flags, depth: number): Node {
    const body = this.alternation(f, depth + 1);
    this.pos++; // ")"
    return body;
  }

  private atom(f: Flags): Node {
    const c = this.peek()!;
    if (c === '[') return this.charClass(f);
    if (c === '\\') return this.escape(f);
    const cp = this.cps[this.pos++]!;
    if (c === '.') return { t: 'char', test: f.s ? () => true : (x) => x !== 10 };
    if (c === '^') return { t: 'assert', kind: f.m ? 'beginLine' : 'beginText' };
    if (c === '$') return { t: 'assert', kind: f.m ? 'endLine' : 'endText' };
    return f.i ? { t: 'char', test: (x) => sameFold(x, cp) } : single(cp);
  }

  private escape(f: Flags): Node {
    const start = this.pos;
    const c = this.peek(1);
    if (c === undefined) throw new RegexpSyntaxError('trailing backslash at end of expression', '');
    if (c === 'A' || c === 'z' || c === 'b' || c === 'B') {
      this.pos += 2;
      return { t: 'assert', kind: c === 'A' ? 'beginText' : c === 'z' ? 'endText' : c === 'b' ? 'wordBoundary' : 'notWordBoundary' };
    }
    if (c === 'Q') {
      this.pos += 2;
      const items: Node[] = [];
      while (this.pos < this.cps.length && !(this.peek() === '\\' && this.peek(1) === 'E')) {
        const cp = this.cps[this.pos++]!;
        items.push(f.i ? { t: 'char', test: (x) => sameFold(x, cp) } : single(cp));
      }
      if (this.pos < this.cps.length) this.pos += 2;
      return { t: 'cat', items };
    }
    const test = this.classEscape(f);
    if (test) return { t: 'char', test };
    this.pos = start;
    const cp = this.escapedCodePoint();
    return f.i ? { t: 'char', test: (x) => sameFold(x, cp) } : single(cp);
  }

  /** `\d \s \w \D \S \W \pN \p{Name} \PN` at pos: consumes it and returns its test; anything else: null. */
  private classEscape(f: Flags): CodePointTest | null {
    const start = this.pos;
    const c = this.peek(1);
    if (c !== undefined && 'dswDSW'.includes(c)) {
      this.pos += 2;
      return group(PERL_CLASSES[c.toLowerCase()]!, c !== c.toLowerCase(), f);
    }
    if (c !== 'p' && c !== 'P') return null;
    this.pos += 2;
    let name = this.peek() ?? '';
    if (name === '{') {
      const close = this.cps.indexOf(0x7d, this.pos);
      if (close < 0) throw new RegexpSyntaxError('invalid character class range', this.text(start, this.cps.length));
      name = this.text(this.pos + 1, close);
      this.pos = close + 1;
    } else if (name === '') throw new RegexpSyntaxError('invalid character class range', this.text(start));
    else this.pos++;
    const negate = (c === 'P') !== name.startsWith('^');
    // As Go: case folding widens the class first (table plus fold orbits), negation applies to the widened class.
    const member = unicodeClass(name.replace(/^\^/, ''), f.i);
    if (!member) throw new RegexpSyntaxError('invalid character class range', this.text(start));
    return negate ? (cp) => !member(cp) : member;
  }

  /** The code point of a literal escape at pos (`\n`, `\x41`, `\x{263a}`, `\012`, `\.`), consumed. */
  private escapedCodePoint(): number {
    const start = this.pos;
    const c = this.peek(1);
    if (c === undefined) throw new RegexpSyntaxError('trailing backslash at end of expression', '');
    this.pos += 2;
    if (SIMPLE_ESCAPES[c] !== undefined) return SIMPLE_ESCAPES[c];
    if (c >= '0' && c <= '7') {
      // \1-\7 alone would be a back-reference, which RE2 does not have; \0 and multi-digit octal are literals.
      if (c !== '0' && !/[0-7]/.test(this.peek() ?? '')) throw new RegexpSyntaxError('invalid escape sequence', this.text(start));
      let digits = c;
      while (digits.length < 3 && /[0-7]/.test(this.peek() ?? '')) digits += String.fromCodePoint(this.cps[this.pos++]!);
      return Number.parseInt(digits, 8);
    }
    if (c === 'x') {
      if (this.peek() === '{') {
        const close = this.cps.indexOf(0x7d, this.pos);
        const hex = close < 0 ? '' : this.text(this.pos + 1, close);
        if (!/^[0-9A-Fa-f]+$/.test(hex) || Number.parseInt(hex, 16) > MAX_CP) throw new RegexpSyntaxError('invalid escape sequence', this.text(start, close < 0 ? this.cps.length : close + 1));
        this.pos = close + 1;
        return Number.parseInt(hex, 16);
      }
      const hex = this.text(this.pos, this.pos + 2);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new RegexpSyntaxError('invalid escape sequence', this.text(start, Math.min(this.cps.length, this.pos + 2)));
      this.pos += 2;
      return Number.parseInt(hex, 16);
    }
    // Punctuation may be escaped; other letters and digits may not.
    const cp = c.codePointAt(0)!;
    if (cp < 0x80 && !/[0-9A-Za-z_]/.test(c)) return cp;
    throw new RegexpSyntaxError('invalid escape sequence', this.text(start));
  }

  private charClass(f: Flags): Node {
    const start = this.pos;
    this.pos++;
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.pos++;
    }
    const tests: CodePointTest[] = [];
    const ranges: Range[] = [];
    let first = true;
    while (this.peek() !== ']' || first) {
      if (this.peek() === undefined) throw new RegexpSyntaxError('missing closing ]', this.text(start, this.cps.length));
      first = false;
      const itemStart = this.pos;
      if (this.peek() === '[' && this.peek(1) === ':') {
        const close = this.text(this.pos, this.cps.length).indexOf(':]');
        if (close >= 0) {
          const name = this.text(this.pos + 2, this.pos + close);
          const cls = POSIX_CLASSES[name.replace(/^\^/, '')];
          if (!cls) throw new RegexpSyntaxError('invalid character class', this.text(this.pos, this.pos + close + 2));
          this.pos += close + 2;
          tests.push(group(cls, name.startsWith('^'), f));
          continue;
        }
      }
      if (this.peek() === '\\') {
        const test = this.classEscape(f);
        if (test) {
          tests.push(test);
          continue;
        }
      }
      const lo = this.classChar();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos++;
        const hi = this.classChar();
        if (hi < lo) throw new RegexpSyntaxError('invalid character class range', this.text(itemStart));
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    this.pos++;
    const plain = (cp: number) => inRanges(ranges, cp) || tests.some((t) => t(cp));
    // Single characters fold exactly (sameFold); ranges through the case variants casing reaches.
    const singles = ranges.filter(([lo, hi]) => lo === hi).map(([lo]) => lo);
    const foldedPlain = folded(plain);
    const member = f.i ? (cp: number) => foldedPlain(cp) || singles.some((lo) => sameFold(cp, lo)) : plain;
    return { t: 'char', test: negate ? (cp) => !member(cp) : member };
  }

  private classChar(): number {
    if (this.peek() !== '\\') return this.cps[this.pos++]!;
    return this.escapedCodePoint();
  }
}

/** A Perl or POSIX class, as Go's appendGroup builds it: under (?i) folded first, then negated. */
function group(ranges: readonly Range[], negate: boolean, f: Flags): CodePointTest {
  const plain = (cp: number) => inRanges(ranges, cp);
  const member = f.i ? folded(plain) : plain;
  return negate ? (cp) => !member(cp) : member;
}

/** The largest count a node already repeats its content (for Go's bound on nested repetitions). */
function innerRepeat(node: Node): number {
  switch (node.t) {
    case 'rep':
      return Math.max(1, node.max === -1 ? node.min : node.max) * innerRepeat(node.node);
    case 'cat':
    case 'alt':
      return Math.max(1, ...node.items.map(innerRepeat));
    default:
      return 1;
  }
}
