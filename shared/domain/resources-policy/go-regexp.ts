// Go regexp.Compile + MatchString for targetContainersNameRegex: Go's syntax and error texts (go-regexp-parse.ts),
// matched by a Thompson NFA simulation, so matching is linear in the name's length whatever the pattern, as with RE2
// (an ECMAScript RegExp backtracks: `(a+)+$` against a long name would stall the webhook).
import { Parser, RegexpSyntaxError, type CodePointTest, type Node } from './go-regexp-parse.js';

export type GoRegexp = { ok: true; regexp: { test(s: string): boolean } } | { ok: false; error: string };

/** Program size bound (Go refuses large programs too: `expression too large`). */
const MAX_STATES = 10_000;

type AssertKind = Extract<Node, { t: 'assert' }>['kind'];
type State =
  | { k: 'char'; test: CodePointTest; out: number }
  | { k: 'split'; out: number[] }
  | { k: 'assert'; kind: AssertKind; out: number }
  | { k: 'match' };

class Program {
  readonly states: State[] = [];

  constructor(private readonly pattern: string) {}

  matchState(): number {
    return this.add({ k: 'match' });
  }

  private add(s: State): number {
    if (this.states.length >= MAX_STATES) throw new RegexpSyntaxError('expression too large', this.pattern);
    this.states.push(s);
    return this.states.length - 1;
  }

  /** Compiles `node` so that it continues at state `next`; returns its entry state. */
  emit(node: Node, next: number): number {
    switch (node.t) {
      case 'char':
        return this.add({ k: 'char', test: node.test, out: next });
      case 'assert':
        return this.add({ k: 'assert', kind: node.kind, out: next });
      case 'cat':
        return node.items.reduceRight((out, item) => this.emit(item, out), next);
      case 'alt':
        return this.add({ k: 'split', out: node.items.map((item) => this.emit(item, next)) });
      case 'rep': {
        let entry = next;
        if (node.max === -1) {
          const loop = this.add({ k: 'split', out: [] });
          (this.states[loop] as { out: number[] }).out = [this.emit(node.node, loop), next];
          entry = loop;
        } else {
          for (let i = node.min; i < node.max; i++) entry = this.add({ k: 'split', out: [this.emit(node.node, entry), next] });
        }
        for (let i = 0; i < node.min; i++) entry = this.emit(node.node, entry);
        return entry;
      }
    }
  }
}

const isWord = (cp: number | undefined) => cp !== undefined && (cp === 0x5f || (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a));

function holds(kind: AssertKind, prev: number | undefined, next: number | undefined): boolean {
  switch (kind) {
    case 'beginText':
      return prev === undefined;
    case 'endText':
      return next === undefined;
    case 'beginLine':
      return prev === undefined || prev === 10;
    case 'endLine':
      return next === undefined || next === 10;
    case 'wordBoundary':
      return isWord(prev) !== isWord(next);
    case 'notWordBoundary':
      return isWord(prev) === isWord(next);
  }
}

function matcher(states: readonly State[], start: number): (s: string) => boolean {
  return (s) => {
    const cps = [...s].map((c) => c.codePointAt(0)!);
    let current: number[] = [];
    const seen = new Uint32Array(states.length);
    let generation = 0;
    const addClosure = (list: number[], from: number, pos: number) => {
      const stack = [from];
      while (stack.length > 0) {
        const i = stack.pop()!;
        if (seen[i] === generation) continue;
        seen[i] = generation;
        const st = states[i]!;
        if (st.k === 'split') for (let j = st.out.length - 1; j >= 0; j--) stack.push(st.out[j]!);
        else if (st.k === 'assert') {
          if (holds(st.kind, cps[pos - 1], cps[pos])) stack.push(st.out);
        } else list.push(i);
      }
    };
    for (let pos = 0; pos <= cps.length; pos++) {
      generation++;
      const next: number[] = [];
      for (const i of current) {
        const st = states[i]!;
        if (st.k === 'char' && st.test(cps[pos - 1]!)) addClosure(next, st.out, pos);
      }
      addClosure(next, start, pos); // unanchored: a match may start anywhere
      if (next.some((i) => states[i]!.k === 'match')) return true;
      current = next;
    }
    return false;
  };
}

/** regexp.Compile(pattern): a matcher with MatchString's meaning (unanchored), or Go's error text. */
export function compileGoRegexp(pattern: string): GoRegexp {
  try {
    const tree = new Parser(pattern).parse();
    const program = new Program(pattern);
    const start = program.emit(tree, program.matchState());
    return { ok: true, regexp: { test: matcher(program.states, start) } };
  } catch (err) {
    if (err instanceof RegexpSyntaxError) return { ok: false, error: err.message };
    throw err;
  }
}
