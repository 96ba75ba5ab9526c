// A budget on what YAML aliases may expand to, enforced while js-yaml parses. js-yaml keeps an alias as a shared
// reference, so parsing a "billion laughs" file is cheap, but everything after it (printing, the handlers, merge
// keys `<<: *a`, alias keys) pays for the expanded copy: a 583-byte file ran for minutes and 1 GB. kubectl accepts
// anchors and aliases, so the CLI does too, as long as their copies stay within a size linear in the input.

/** Characters-worth an expansion may reach: max(1 MB, 8 × the input); ordinary manifests never come close. */
export function aliasBudget(inputLength: number): number {
  return Math.max(1_000_000, 8 * inputLength);
}

/** Thrown from inside the parser when the aliases of a source exceed its budget. */
export class AliasBudgetError extends Error {
  override name = 'AliasBudgetError';
  constructor(readonly line: number, readonly budget: number) {
    super(`line ${line}: YAML aliases expand to more than ${budget} characters (the limit is 8 times the input, at least 1 MB)`);
  }
}

/**
 * Size of `value` written out at nesting `depth`, roughly as indented JSON: each node costs 1 plus its indentation,
 * strings and keys their length. Walks the expanded tree without recursion and stops once `limit` is passed (so a
 * self-referencing anchor ends too), returning Infinity then.
 */
export function expandedSize(value: unknown, depth: number, limit: number): number {
  let total = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth }];
  while (stack.length) {
    const top = stack.pop()!;
    total += 1 + top.depth;
    if (typeof top.value === 'string') total += top.value.length;
    else if (top.value !== null && typeof top.value === 'object') {
      for (const [k, v] of Object.entries(top.value)) {
        total += k.length;
        stack.push({ value: v, depth: top.depth + 1 });
      }
    }
    if (total > limit) return Infinity;
  }
  return total;
}

/** The subset of js-yaml's parser state a listener reads (js-yaml's `listener` option, loader.js composeNode). */
interface ParserState { kind: string | null; result: unknown; line: number }

/**
 * A js-yaml `listener` charging every alias (a node closed with a result but no kind of its own) its expanded size
 * at its depth, and throwing AliasBudgetError, which aborts the parse, once the total passes `budget`. The charge
 * comes before js-yaml merges or stringifies the aliased value, so that work is bounded by the budget too.
 */
export function aliasListener(budget: number): (event: 'open' | 'close', state: ParserState) => void {
  let depth = 0;
  let spent = 0;
  return (event, state) => {
    if (event === 'open') {
      depth++;
      return;
    }
    depth--;
    if (state.kind !== null || state.result === null || state.result === undefined) return;
    spent += expandedSize(state.result, depth, budget - spent);
    if (spent > budget) throw new AliasBudgetError(state.line + 1, budget);
  };
}
