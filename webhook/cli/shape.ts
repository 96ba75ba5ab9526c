// What a parsed document must look like before the CLI admits it: an object with string apiVersion and kind, no
// prototype-poisoning keys (the webhook answers 400 for those), nesting the handlers and printers can walk, and no
// value shared between two places (a YAML alias), so a mutation of one copy never shows up in another.

/** Deeper than any Kubernetes object, shallower than what the recursive handlers and printers survive. */
export const maxDepth = 1500;

/** Why `doc` cannot be admitted, or undefined when it can. */
export function shapeProblem(doc: unknown): string | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return `not a Kubernetes object (got ${typeName(doc)}; expected a mapping with apiVersion and kind)`;
  }
  const obj = doc as Record<string, unknown>;
  for (const field of ['apiVersion', 'kind'] as const) {
    if (obj[field] === undefined) return `${field} is missing`;
    if (typeof obj[field] !== 'string' || obj[field] === '') return `${field} must be a non-empty string (got ${typeName(obj[field])})`;
  }
  const metadata = obj.metadata;
  if (metadata === undefined) return undefined;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return `metadata must be a mapping (got ${typeName(metadata)})`;
  for (const field of ['name', 'generateName', 'namespace'] as const) {
    const v = (metadata as Record<string, unknown>)[field];
    if (v !== undefined && typeof v !== 'string') return `metadata.${field} must be a string (got ${typeName(v)})`;
  }
  return undefined;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;
}

export type Copy = { ok: true; value: unknown } | { ok: false; problem: string };

/** What the documents of one source may print to: max(16 MB, 8 × the input). */
export function printBudget(inputLength: number): { left: number; limit: number } {
  const limit = Math.max(16_000_000, 8 * inputLength);
  return { left: limit, limit };
}

/**
 * A copy of `value` with every shared (aliased) node copied out, checked on the way: no `__proto__` key and no
 * `constructor.prototype` (secure-json-parse's rules, which the webhook's parser applies), no cycle, at most
 * `maxDepth` levels, and a printed size (each node 1 plus its indentation, strings and keys their length) within
 * what is `left` of `budget`, which it charges: deep nesting alone multiplies what indented output takes. Iterative,
 * so its own depth is no limit; its cost is the expanded size, which the parser's alias budget already bounds.
 */
export function unsharedCopy(value: unknown, budget: { left: number; limit: number }): Copy {
  if (value === null || typeof value !== 'object') return { ok: true, value };
  const root: unknown = Array.isArray(value) ? [] : {};
  interface Frame { from: object; to: any; entries: [string, unknown][]; i: number }
  const onPath = new Set<object>([value]);
  const stack: Frame[] = [{ from: value, to: root, entries: Object.entries(value), i: 0 }];
  // Built only for an error: a path per node would cost its depth for every node.
  const pathTo = () => fieldPath(stack.map((f) => ({ key: f.entries[f.i - 1]![0], inList: Array.isArray(f.from) })));
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.i === top.entries.length) {
      onPath.delete(top.from);
      stack.pop();
      continue;
    }
    const [key, v] = top.entries[top.i++]!;
    budget.left -= 1 + stack.length + key.length + (typeof v === 'string' ? v.length : 0);
    if (key === '__proto__') return { ok: false, problem: `${pathTo()}: a "__proto__" key is not allowed` };
    if (key === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype')) {
      return { ok: false, problem: `${pathTo()}: a "constructor" mapping with a "prototype" key is not allowed` };
    }
    if (budget.left < 0) return { ok: false, problem: `${pathTo()}: would print to more than ${budget.limit} characters (the limit is 8 times the input, at least 16 MB)` };
    if (v === null || typeof v !== 'object') {
      top.to[key] = v;
      continue;
    }
    if (onPath.has(v)) return { ok: false, problem: `${pathTo()}: a YAML alias refers to a node that contains it` };
    if (stack.length >= maxDepth) return { ok: false, problem: `${pathTo()}: nesting too deep (more than ${maxDepth} levels)` };
    const to = Array.isArray(v) ? [] : {};
    top.to[key] = to;
    onPath.add(v);
    stack.push({ from: v, to, entries: Object.entries(v), i: 0 });
  }
  return { ok: true, value: root };
}

/** `spec.containers[0].env`; a very deep one keeps its ends and says how deep it is, a very long key its start. */
function fieldPath(steps: { key: string; inList: boolean }[]): string {
  const step = (s: { key: string; inList: boolean }, i: number) => {
    const key = s.key.length > 60 ? `${s.key.slice(0, 60)}…` : s.key;
    return s.inList ? `[${key}]` : i === 0 ? key : `.${key}`;
  };
  if (steps.length <= 16) return steps.map(step).join('');
  return `${steps.slice(0, 8).map(step).join('')}…${steps.slice(-8).map((s, i) => step(s, i + 8)).join('')} (${steps.length} levels down)`;
}
