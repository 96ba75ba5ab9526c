// resourcesPolicy expressions (spec/openkruise-v1.9.md §3.4): a recursive-descent parser that evaluates as it parses,
// in the order upstream's LALR parser runs its grammar actions, so that the same error wins when several occur:
// a failed operation records its error and yields null, the last recorded error is the one reported, and it is
// reported even when a syntax error follows (`invalid expression` → `undefined variable: invalid`).
//
//   expr   = term { ("+" | "-") term }          term = factor { ("*" | "/") factor }
//   factor = NUMBER | QUANTITY | IDENT | IDENT "(" expr [ "," expr ] ")" | "(" expr ")" | "-" factor
//
// Input is bounded (MAX_EXPRESSION_BYTES, MAX_NESTING): cost is linear in the input and the stack stays shallow.
import { QuantityParseError, formatGoQuantity } from '../quantity.js';
import { parseQuantity, sign } from '../quantity-math.js';
import { formatGoFloat, parseGoFloat } from './go-float.js';
import { isOperator, Lexer, type Token } from './lexer.js';
import { divide, extreme, minus, negate, num, plus, qty, times, type ErrorSink, type Result, type Value } from './values.js';

export type { Value } from './values.js';
export { num, qty } from './values.js';

/** Longer expressions are refused (upstream has no bound; real ones are a few dozen bytes). */
export const MAX_EXPRESSION_BYTES = 4096;
/** Parentheses, calls and unary minus nested deeper than this are refused (upstream has no bound). */
export const MAX_NESTING = 64;

/** An expression that does not evaluate; `message` is upstream's calculator error text. */
export class ExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpressionError';
  }
}

class SyntaxFailure {
  constructor(readonly token: Token) {}
}

const utf8 = new TextDecoder();

class Evaluation implements ErrorSink {
  private lastError: string | undefined;
  private token: Token;
  private readonly lexer: Lexer;

  constructor(input: Uint8Array, private readonly variables: ReadonlyMap<string, Value>) {
    this.lexer = new Lexer(input);
    this.token = this.lexer.next();
  }

  fail(message: string): null {
    this.lastError = message;
    return null;
  }

  run(): Value {
    let result: Result;
    try {
      result = this.expr(0);
      if (this.token.kind !== 'end') throw new SyntaxFailure(this.token);
    } catch (err) {
      if (!(err instanceof SyntaxFailure)) throw err;
      throw new ExpressionError(this.lastError ?? `parse error: syntax error at line ${err.token.line}, col ${err.token.col}`);
    }
    if (!result) throw new ExpressionError(this.lastError ?? 'no result from parser');
    if (result.kind === 'quantity' && sign(result.q) < 0) throw new ExpressionError(`calculation result is negative: ${formatGoQuantity(result.q)}`);
    if (result.kind === 'number' && result.n < 0) throw new ExpressionError(`calculation result is negative: ${formatGoFloat(result.n)}`);
    return result;
  }

  private advance(): Token {
    const t = this.token;
    this.token = this.lexer.next();
    return t;
  }

  private expect(op: string): void {
    if (!isOperator(this.token, op)) throw new SyntaxFailure(this.token);
    this.advance();
  }

  private expr(depth: number): Result {
    let left = this.term(depth);
    for (;;) {
      if (isOperator(this.token, '+')) {
        this.advance();
        left = plus(left, this.term(depth));
      } else if (isOperator(this.token, '-')) {
        this.advance();
        left = minus(left, this.term(depth));
      } else return left;
    }
  }

  private term(depth: number): Result {
    let left = this.factor(depth);
    for (;;) {
      if (isOperator(this.token, '*')) {
        this.advance();
        left = times(left, this.factor(depth), this);
      } else if (isOperator(this.token, '/')) {
        this.advance();
        left = divide(left, this.factor(depth), this);
      } else return left;
    }
  }

  private factor(depth: number): Result {
    if (depth >= MAX_NESTING) throw new ExpressionError(`expression nests deeper than ${MAX_NESTING} levels`);
    const t = this.advance();
    switch (t.kind) {
      case 'number':
        return num(parseGoFloat(t.text));
      case 'quantity':
        try {
          return qty(parseQuantity(t.text));
        } catch (err) {
          if (err instanceof QuantityParseError) return this.fail(err.message);
          throw err;
        }
      case 'ident':
        return isOperator(this.token, '(') ? this.call(t, depth + 1) : this.variable(t);
      case 'op':
        if (t.text === '(') {
          const v = this.expr(depth + 1);
          this.expect(')');
          return v;
        }
        if (t.text === '-') return negate(this.factor(depth + 1));
        throw new SyntaxFailure(t);
      default:
        throw new SyntaxFailure(t);
    }
  }

  private variable(t: Token): Result {
    const name = goLower(t);
    return this.variables.get(name) ?? this.fail(`undefined variable: ${name}`);
  }

  private call(nameToken: Token, depth: number): Result {
    this.advance(); // "("
    const args = [this.expr(depth)];
    if (isOperator(this.token, ',')) {
      this.advance();
      args.push(this.expr(depth));
    }
    this.expect(')');
    const lower = goLower(nameToken);
    if (lower !== 'max' && lower !== 'min') return this.fail(`unknown function: ${utf8.decode(nameToken.bytes)}`);
    if (args.length !== 2) return this.fail(`${lower} function requires exactly 2 arguments, got ${args.length}`);
    const [a, b] = args;
    return a && b ? extreme(lower, a, b) : null;
  }
}

/** strings.ToLower of an identifier (ASCII letters are what matter: names are compared with `cpu`, `memory`, `max`). */
const goLower = (t: Token): string => utf8.decode(t.bytes).toLowerCase();

/**
 * Evaluates `expr` with `variables` bound (lower-case names). Throws ExpressionError with upstream's message for bad
 * syntax, an unknown variable or function, invalid quantities, quantity × quantity, division by a quantity or by
 * zero, or a negative result; and for input beyond the bounds above.
 */
export function evaluateExpression(expr: string, variables: ReadonlyMap<string, Value>): Value {
  const input = new TextEncoder().encode(expr);
  if (input.length > MAX_EXPRESSION_BYTES) throw new ExpressionError(`expression is longer than ${MAX_EXPRESSION_BYTES} bytes`);
  return new Evaluation(input, variables).run();
}
