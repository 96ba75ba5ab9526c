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

/**
 * A copy of `value` with every shared (aliased) node copied out, checked on the way: no `__proto__` key and no
 * `constructor.prototype` (secure-json-parse's rules, which the webhook's parser applies), no cycle, at most
 * `maxDepth` levels. Iterative, so its own depth is no limit; its cost is the expanded size, which the parser's
 * alias budget already bounds.
 */
export function unsharedCopy(value: unknown): Copy {
  if (value === null || typeof value !== 'object') return { ok: true, value };
  const root: unknown = Array.isArray(value) ? [] : {};
  interface Frame { from: object; to: any; entries: [string, unknown][]; i: number; path: string }
  const onPath = new Set<object>([value]);
  const stack: Frame[] = [{ from: value, to: root, entries: Object.entries(value), i: 0, path: '' }];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.i === top.entries.length) {
      onPath.delete(top.from);
      stack.pop();
      continue;
    }
    const [key, v] = top.entries[top.i++]!;
    const path = Array.isArray(top.from) ? `${top.path}[${key}]` : top.path ? `${top.path}.${key}` : key;
    if (key === '__proto__') return { ok: false, problem: `${path}: a "__proto__" key is not allowed` };
    if (key === 'constructor' && v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype')) {
      return { ok: false, problem: `${path}: a "constructor" mapping with a "prototype" key is not allowed` };
    }
    if (v === null || typeof v !== 'object') {
      top.to[key] = v;
      continue;
    }
    if (onPath.has(v)) return { ok: false, problem: `${path}: a YAML alias refers to a node that contains it` };
    if (stack.length >= maxDepth) return { ok: false, problem: `${path}: nesting too deep (more than ${maxDepth} levels)` };
    const to = Array.isArray(v) ? [] : {};
    top.to[key] = to;
    onPath.add(v);
    stack.push({ from: v, to, entries: Object.entries(v), i: 0, path });
  }
  return { ok: true, value: root };
}
