// `npm run lint`'s check that no import cycle exists among the project's TypeScript files (style guide: "no import
// cycles"). Reads every relative `import … from` / `export … from` (type-only ones too: a cycle of types is still a
// cycle of concepts) and prints each strongly connected component of more than one file; exit 1 if there is one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOTS = ['shared', 'webhook', 'controller', 'daemon', 'certs', 'e2e', 'scripts', 'bench'];
const SKIP = new Set(['node_modules', 'dist', '.run']);

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    if (SKIP.has(e)) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const SPEC = /(?:^|\n)\s*(?:import|export)\s[^'"]*?\sfrom\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g;

/** file → the project files it imports (relative specifiers, `.js` written for the `.ts` file). */
export function importGraph(repoRoot: string, roots = ROOTS): Map<string, string[]> {
  const files = roots.flatMap((r) => { try { return tsFiles(join(repoRoot, r)); } catch { return []; } });
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps: string[] = [];
    for (const m of readFileSync(f, 'utf8').matchAll(SPEC)) {
      const spec = (m[1] ?? m[2]) as string;
      const target = resolve(dirname(f), spec.replace(/\.js$/, '.ts'));
      if (known.has(target)) deps.push(target);
    }
    graph.set(f, deps);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan, iterative: no recursion depth limit). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<[string, number]> = [[start, 0]];
    while (work.length) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      if (i === 0) { index.set(v, next); low.set(v, next); next++; stack.push(v); onStack.add(v); }
      const deps = graph.get(v) ?? [];
      if (i < deps.length) {
        top[1]++;
        const w = deps[i]!;
        if (!index.has(w)) work.push([w, 0]);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) { const u = work[work.length - 1]![0]; low.set(u, Math.min(low.get(u)!, low.get(v)!)); }
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do { w = stack.pop()!; onStack.delete(w); scc.push(w); } while (w !== v);
        if (scc.length > 1) out.push(scc.sort());
      }
    }
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const repoRoot = resolve(import.meta.dirname, '..');
  const found = cycles(importGraph(repoRoot));
  for (const c of found) process.stderr.write(`import cycle: ${c.map((f) => relative(repoRoot, f)).join(' ↔ ')}\n`);
  if (found.length) process.exitCode = 1;
}
