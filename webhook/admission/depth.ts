// How deeply a decoded JSON value nests, checked without recursion (review L1). The admission code after the decode
// step walks objects recursively (cloneJson, the diff, the Go-JSON emulation, structuredClone), and an object nested
// 10,000 levels deep overflowed the stack there: a code 500 instead of the 400 that bad input gets.
//
// Why 128: the apiserver's decoders allow far more (Go's encoding/json and sigs.k8s.io/json stop at 10,000 levels, and
// so does sigs.k8s.io/yaml), but that is a parser safety net, not a shape any object has: a Pod is at most ~10 levels
// deep (spec.affinity.nodeAffinity…matchExpressions[].values[]), and the kinds this webhook admits are typed except for
// fields no handler reads. 128 is an order of magnitude above that and far below where a recursive walk of ours runs
// out of stack (several thousand frames), so every later step is safe.
export const MAX_NESTING_DEPTH = 128;

/**
 * The path to the first array or object found nested deeper than `limit` (the top value is level 1), or undefined
 * when none is. Iterative (explicit stacks), linear in the number of arrays and objects; the path is only worked out,
 * by a second walk, for a value that is too deep.
 */
export function tooDeepPath(root: unknown, limit = MAX_NESTING_DEPTH): string | undefined {
  return exceeds(root, limit) ? pathBeyond(root as object, limit) : undefined;
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

function exceeds(root: unknown, limit: number): boolean {
  if (!isContainer(root)) return false;
  const values: object[] = [root];
  const levels: number[] = [1];
  while (values.length > 0) {
    const v = values.pop()!;
    const level = levels.pop()!;
    if (level > limit) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (!isContainer(v[i])) continue;
        values.push(v[i]);
        levels.push(level + 1);
      }
    } else {
      for (const k of Object.keys(v)) {
        const child = (v as Record<string, unknown>)[k];
        if (!isContainer(child)) continue;
        values.push(child);
        levels.push(level + 1);
      }
    }
  }
  return false;
}

/** The same walk, remembering how each value was reached: the path to the first one beyond `limit`. */
function pathBeyond(root: object, limit: number): string {
  const values: object[] = [root];
  const levels: number[] = [1];
  const via: number[] = [-1];
  const keys: string[] = [''];
  // Every value visited, as (parent visit, key): enough to spell the path of any of them.
  const parentOf: number[] = [];
  const keyOf: string[] = [];
  while (values.length > 0) {
    const v = values.pop()!;
    const level = levels.pop()!;
    const visit = parentOf.push(via.pop()!) - 1;
    keyOf.push(keys.pop()!);
    if (level > limit) return spell(parentOf, keyOf, visit);
    const children: [string, unknown][] = Array.isArray(v) ? v.map((c, i) => [`[${i}]`, c]) : Object.entries(v).map(([k, c]) => [`.${k}`, c]);
    for (const [key, child] of children) {
      if (!isContainer(child)) continue;
      values.push(child);
      levels.push(level + 1);
      via.push(visit);
      keys.push(key);
    }
  }
  return '';
}

/** The path of a visit, shortened to its first and last steps (it is over a hundred steps long). */
function spell(parentOf: readonly number[], keyOf: readonly string[], visit: number): string {
  const steps: string[] = [];
  for (let e = visit; e > 0; e = parentOf[e]!) steps.push(keyOf[e]!);
  steps.reverse();
  const shown = steps.length > 8 ? [...steps.slice(0, 4), '…', ...steps.slice(-2)] : steps;
  return shown.join('').replace(/^\./, '');
}
