// Go regexp.Compile + MatchString for targetContainersNameRegex: Go's syntax and error texts (go-regexp-parse.ts),
// compiled to a Thompson NFA and run as a lazily built DFA, so matching is linear in the name's length whatever the
// pattern, as with RE2 (an ECMAScript RegExp backtracks: `(a+)+$` against a long name would stall the webhook).
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

/** A position's neighbour as assertions see it: 0 none (text edge), 1 newline, 2 word character, 3 other. */
type Neighbour = 0 | 1 | 2 | 3;
const neighbour = (cp: number | undefined): Neighbour =>
  cp === undefined ? 0 : cp === 10 ? 1 : cp === 0x5f || (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? 2 : 3;

function holds(kind: AssertKind, prev: Neighbour, next: Neighbour): boolean {
  switch (kind) {
    case 'beginText':
      return prev === 0;
    case 'endText':
      return next === 0;
    case 'beginLine':
      return prev === 0 || prev === 1;
    case 'endLine':
      return next === 0 || next === 1;
    case 'wordBoundary':
      return (prev === 2) !== (next === 2);
    case 'notWordBoundary':
      return (prev === 2) === (next === 2);
  }
}

/** A set of NFA states after the epsilon closure at one position: a state of the lazily built DFA. */
interface DfaState {
  readonly states: readonly number[];
  readonly matched: boolean;
  /** Keyed by code point × 4 + the neighbour after it. */
  readonly next: Map<number, DfaState>;
}

/** DFA states and transitions kept per pattern before the cache starts over (RE2 bounds its DFA cache the same way). */
const MAX_DFA_STATES = 2000;
const MAX_DFA_TRANSITIONS = 100_000;

/**
 * MatchString as a DFA built lazily from the NFA (RE2's approach): each step is a cached transition, or one pass
 * over the NFA states on a miss, so matching costs O(length × NFA size) at worst and O(length) once warm.
 */
function matcher(states: readonly State[], start: number): (s: string) => boolean {
  let interned = new Map<string, DfaState>();
  let initial: (DfaState | undefined)[] = [];
  let transitions = 0;
  const seen = new Uint32Array(states.length);
  let generation = 0;

  const close = (kernel: readonly number[], prev: Neighbour, next: Neighbour): DfaState => {
    generation++;
    const list: number[] = [];
    const stack = [start, ...kernel].reverse();
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (seen[i] === generation) continue;
      seen[i] = generation;
      const st = states[i]!;
      if (st.k === 'split') for (let j = st.out.length - 1; j >= 0; j--) stack.push(st.out[j]!);
      else if (st.k === 'assert') {
        if (holds(st.kind, prev, next)) stack.push(st.out);
      } else list.push(i);
    }
    const key = list.join(',');
    let d = interned.get(key);
    if (!d) {
      if (interned.size >= MAX_DFA_STATES || transitions >= MAX_DFA_TRANSITIONS) {
        interned = new Map();
        initial = [];
        transitions = 0;
      }
      d = { states: list, matched: list.some((i) => states[i]!.k === 'match'), next: new Map() };
      interned.set(key, d);
    }
    return d;
  };

  return (s) => {
    const cps = [...s].map((c) => c.codePointAt(0)!);
    const first = neighbour(cps[0]);
    let d = initial[first] ?? (initial[first] = close([], 0, first));
    for (let pos = 0; pos < cps.length; pos++) {
      if (d.matched) return true;
      const cp = cps[pos]!;
      const after = neighbour(cps[pos + 1]);
      const key = cp * 4 + after;
      let next = d.next.get(key);
      if (!next) {
        const kernel: number[] = [];
        for (const i of d.states) {
          const st = states[i]!;
          if (st.k === 'char' && st.test(cp)) kernel.push(st.out);
        }
        next = close(kernel, neighbour(cp), after);
        d.next.set(key, next);
        transitions++;
      }
      d = next;
    }
    return d.matched;
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
