// The CRDs kruise-ts ships against OpenKruise v1.9.0's, field by field in every served version
// (scripts/fixtures/openkruise-v1.9.0-crd-paths.txt). OpenKruise's clients — kubectl-kruise, its typed clientset —
// must read and write every kind without losing a field:
// - a path upstream has and kruise-ts lacks is pruned on write, and server-side apply refuses it ("field not declared
//   in schema");
// - a path kruise-ts has and upstream lacks is what a strict decoder (DisallowUnknownFields) refuses on read;
// - a field kruise-ts requires and upstream does not refuses objects those clients write;
// - where upstream keeps unknown fields, kruise-ts must keep them too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';
import { CRDS } from '../shared/api/crds.js';
import { crdPaths } from './crd-paths.js';
import { CRD_DIR, crdFileName } from './crds-render.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface FieldPath { path: string; type: string; preserve: boolean; required: boolean }
type Paths = Map<string, FieldPath>;

function parse(lines: readonly string[]): Paths {
  const out: Paths = new Map();
  for (const l of lines) {
    const [version, path, type, ...flags] = l.split(' ');
    out.set(`${version} ${path}`, { path: `${version} ${path}`, type: type!, preserve: flags.includes('preserve'), required: flags.includes('required') });
  }
  return out;
}

function upstream(): Map<string, Paths> {
  const byKind = new Map<string, string[]>();
  for (const l of readFileSync(join(repoRoot, 'scripts/fixtures/openkruise-v1.9.0-crd-paths.txt'), 'utf8').split('\n')) {
    if (!l || l.startsWith('#')) continue;
    const i = l.indexOf(' ');
    byKind.set(l.slice(0, i), [...(byKind.get(l.slice(0, i)) ?? []), l.slice(i + 1)]);
  }
  return new Map([...byKind].map(([k, ls]) => [k, parse(ls)]));
}

const ours = (plural: string): Paths => {
  const text = readFileSync(join(repoRoot, CRD_DIR, crdFileName(CRDS.find((c) => c.plural === plural) ?? ({ plural } as never))), 'utf8');
  return parse(crdPaths((loadAll(text) as (Record<string, unknown> | null)[]).find((d) => d)!));
};

/** The upstream path that keeps unknown fields at or above `path` (items of a preserved list included), if any. */
function preservedBy(up: Paths, path: string): FieldPath | undefined {
  for (let p = path; ; ) {
    const f = up.get(p);
    if (f?.preserve) return f;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['), p.lastIndexOf('{'));
    if (cut <= p.indexOf(' ')) return undefined;
    p = p.slice(0, cut);
  }
}

/** Differences that would lose or refuse a field, as readable lines. */
export function compare(up: Paths, mine: Paths): string[] {
  const out: string[] = [];
  for (const [p, u] of up) {
    if (preservedBy(up, p) && preservedBy(up, p) !== u) continue;
    const m = mine.get(p);
    if (!m) { out.push(`missing (pruned from what OpenKruise clients write): ${p}`); continue; }
    if (u.type !== 'any' && m.type !== u.type) out.push(`type ${m.type}, upstream ${u.type}: ${p}`);
    if (u.preserve && !m.preserve && !mine.get(`${p}[]`)?.preserve) out.push(`unknown fields pruned where upstream keeps them: ${p}`);
  }
  for (const [p, m] of mine) {
    const kept = preservedBy(up, p);
    if (kept && kept.path !== p) continue;
    if (!up.has(p)) { out.push(`extra (strict decoders refuse it): ${p}`); continue; }
    if (m.required && !up.get(p)!.required) out.push(`required here, optional upstream: ${p}`);
  }
  return out;
}

describe('CRDs against OpenKruise v1.9.0 (field paths, every served version)', () => {
  const up = upstream();
  it('the fixture covers every kind kruise-ts ships', () => {
    assert.deepEqual(CRDS.map((c) => c.plural).filter((p) => !up.has(p)), []);
  });
  for (const c of CRDS) {
    it(`${c.kind}: no field missing, extra, re-typed or newly required`, () => {
      assert.deepEqual(compare(up.get(c.plural)!, ours(c.plural)), []);
    });
  }
  it('the comparison catches each kind of difference', () => {
    const base = parse(['v1 spec object', 'v1 spec.a integer required', 'v1 spec.t any preserve', 'v1 status object', 'v1 status.n integer']);
    const mine = parse(['v1 spec object', 'v1 spec.a string', 'v1 spec.t array', 'v1 spec.t[] object', 'v1 spec.t[].x string', 'v1 status object',
      'v1 status.n integer required', 'v1 status.extra string']);
    assert.deepEqual(compare(base, mine), [
      'type string, upstream integer: v1 spec.a',
      'unknown fields pruned where upstream keeps them: v1 spec.t',
      'required here, optional upstream: v1 status.n',
      'extra (strict decoders refuse it): v1 status.extra',
    ]);
    assert.deepEqual(compare(parse(['v1 spec object', 'v1 spec.p integer']), parse(['v1 spec object'])), ['missing (pruned from what OpenKruise clients write): v1 spec.p']);
  });
});
