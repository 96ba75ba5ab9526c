// Tokens of a resourcesPolicy expression, read as upstream's calculator lexer reads them (spec/openkruise-v1.9.md
// §3.4): byte by byte, each byte taken as the Latin-1 character of that code (Go's rune(input[pos])), so letters,
// digits and spaces are Go's unicode classes over Latin-1. Each token records the line and column the lexer has
// reached after reading it: a syntax error reports them.

export type TokenKind = 'number' | 'quantity' | 'ident' | 'op' | 'end';

export interface Token {
  kind: TokenKind;
  /** The token's bytes as text: an operator character, a literal or an identifier (Latin-1 decoded). */
  text: string;
  /** Raw bytes of an identifier (for its name in messages). */
  bytes?: Uint8Array;
  line: number;
  col: number;
}

const OPERATORS = new Set(['+', '-', '*', '/', '(', ')', ',']);
// The suffixes after which a literal is a Kubernetes quantity rather than a number (upstream limits them to Peta).
const QUANTITY_UNITS = new Set(['m', 'k', 'M', 'G', 'T', 'P', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi']);

const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
// unicode.IsLetter over Latin-1.
const isLetter = (b: number) =>
  (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0xaa || b === 0xb5 || b === 0xba ||
  (b >= 0xc0 && b <= 0xd6) || (b >= 0xd8 && b <= 0xf6) || b >= 0xf8;
// unicode.IsSpace over Latin-1.
const isSpace = (b: number) => (b >= 0x09 && b <= 0x0d) || b === 0x20 || b === 0x85 || b === 0xa0;

export class Lexer {
  private pos = 0;
  private line = 1;
  private col = 1;

  constructor(private readonly input: Uint8Array) {}

  private advance(): number {
    const b = this.input[this.pos++]!;
    if (b === 0x0a) {
      this.line++;
      this.col = 1;
    } else this.col++;
    return b;
  }

  private peek(): number | undefined {
    return this.input[this.pos];
  }

  private token(kind: TokenKind, start: number, bytes?: Uint8Array): Token {
    const text = String.fromCharCode(...this.input.subarray(start, this.pos));
    return { kind, text, ...(bytes ? { bytes } : {}), line: this.line, col: this.col };
  }

  next(): Token {
    for (let b = this.peek(); b !== undefined && isSpace(b); b = this.peek()) this.advance();
    const b = this.peek();
    if (b === undefined) return { kind: 'end', text: '', line: this.line, col: this.col };
    if (b === 0) {
      // Go's lexer reads a NUL byte as the end of input (after consuming it): the rest is never read.
      this.advance();
      return { kind: 'end', text: '', line: this.line, col: this.col };
    }
    const start = this.pos;
    if (isDigit(b) || b === 0x2e) {
      this.readNumber();
      const t = this.token('number', start);
      return isQuantityLiteral(t.text) ? { ...t, kind: 'quantity' } : t;
    }
    if (isLetter(b)) {
      for (let c = this.peek(); c !== undefined && (isLetter(c) || isDigit(c) || c === 0x5f); c = this.peek()) this.advance();
      return this.token('ident', start, this.input.slice(start, this.pos));
    }
    this.advance();
    return this.token('op', start);
  }

  /** Digits, one dot, one exponent (its sign only right after it), one `%`, then a run of letters as the unit. */
  private readNumber(): void {
    let seenDot = false;
    let seenE = false;
    let seenPercent = false;
    let expectExponentDigit = false;
    for (let r = this.peek(); r !== undefined && r !== 0; r = this.peek()) {
      if (isDigit(r)) {
        expectExponentDigit = false;
      } else if (r === 0x2e) {
        if (seenDot || seenE || seenPercent) return;
        seenDot = true;
      } else if (r === 0x65 || r === 0x45) {
        if (seenE || seenPercent) return;
        seenE = true;
        expectExponentDigit = true;
      } else if (r === 0x2b || r === 0x2d) {
        if (!expectExponentDigit) return;
        expectExponentDigit = false;
      } else if (r === 0x25) {
        if (seenPercent) return;
        seenPercent = true;
      } else if (isLetter(r)) {
        if (expectExponentDigit) return;
        for (let c = this.peek(); c !== undefined && isLetter(c); c = this.peek()) this.advance();
        return;
      } else return;
      this.advance();
    }
  }
}

/** The calculator's isQuantity: the characters after the leading run of digits, `.`, `e`, `E`, `+`, `-` are a unit. */
function isQuantityLiteral(s: string): boolean {
  const numEnd = s.search(/[^0-9.eE+-]/);
  return numEnd > 0 && QUANTITY_UNITS.has(s.slice(numEnd));
}

export const isOperator = (t: Token, op: string) => t.kind === 'op' && t.text === op && OPERATORS.has(op);
