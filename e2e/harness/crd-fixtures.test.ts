// The every-field fixtures of the CRD schema e2e test carry every field kruise's API types (shared/api) define:
// a field added to a schema without a fixture value fails here, before the e2e run could miss its pruning.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { CRDS } from '../../shared/api/crds.js';
import { CORE_REF } from '../../shared/api/schema.js';
import { CRD_FIXTURES } from './crd-fixtures.js';

type Node = Record<string, unknown> & { properties?: Record<string, Node>; items?: Node; additionalProperties?: Node };

/** The property paths kruise's schema defines itself (a Kubernetes type's own fields are Kubernetes'). */
function* paths(s: Node, path: string): Generator<string> {
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    if (path === '' && (k === 'metadata' || k === 'apiVersion' || k === 'kind')) continue;
    yield `${path}.${k}`;
    if (typeof p[CORE_REF] === 'string' && !p.properties) continue;
    yield* paths(p, `${path}.${k}`);
  }
  if (s.items && !(typeof s.items[CORE_REF] === 'string' && !s.items.properties)) yield* paths(s.items, `${path}[]`);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') yield* paths(s.additionalProperties, `${path}{}`);
}

/** Every property path present in a value (array elements as `[]`, map values as `{}` where the schema has a map). */
function present(v: unknown, s: Node, path: string, out: Set<string>): void {
  if (Array.isArray(v)) { for (const e of v) present(e, s.items ?? {}, `${path}[]`, out); return; }
  if (!v || typeof v !== 'object') return;
  for (const [k, c] of Object.entries(v)) {
    const isMap = !s.properties && s.additionalProperties;
    const child = isMap ? s.additionalProperties! : s.properties?.[k] ?? {};
    const p = isMap ? `${path}{}` : `${path}.${k}`;
    out.add(p);
    present(c, child, p, out);
  }
}

describe('CRD every-field fixtures (e2e/harness/crd-fixtures.ts)', () => {
  for (const c of CRDS) {
    for (const v of c.versions) {
      // A version whose schema is another's (v1beta1 ImagePullJob, ImageListPullJob) is covered by that one's fixture.
      const first = c.versions.find((o) => o.schema === v.schema)!;
      if (first !== v) continue;
      it(`${c.kind}: the fixture sets every field of the ${v.name} schema`, () => {
        const fixture = CRD_FIXTURES.find((f) => f.plural === c.plural && (f.version ?? 'v1alpha1') === v.name);
        assert.ok(fixture, `no ${v.name} fixture for ${c.plural}`);
        assert.equal(fixture.object.apiVersion, `${c.group ?? 'apps.kruise.io'}/${v.name}`);
        const schema = v.schema as TSchema as Node;
        const have = new Set<string>();
        present(fixture.object, schema, '', have);
        assert.deepEqual([...paths(schema, '')].filter((p) => !have.has(p)), []);
      });
    }
  }
});
