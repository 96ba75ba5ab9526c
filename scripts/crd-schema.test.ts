// The expansion rules of scripts/crd-schema.ts on small hand-written definitions shaped like openapi-gen's output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { CORE_SCHEMALESS, Core, CoreWith, CrdOptional, CrdRequired, Obj, Str } from '../shared/api/schema.js';
import { crdSchema, type Definitions } from './crd-schema.js';

const defs: Definitions = {
  'k8s.io/api/core/v1.Port': {
    description: 'A port.', type: 'object', required: ['number'],
    properties: {
      number: { description: 'The number.', type: 'integer', format: 'int32', default: 0 },
      protocol: { description: 'The protocol.\n\nPossible enum values:\n - `"TCP"`', type: 'string', default: 'TCP', enum: ['TCP', 'UDP'] },
      name: { description: 'The name.', type: 'string', default: '' },
      limits: { description: 'Limits.', type: 'object', additionalProperties: { $ref: 'k8s.io/apimachinery/pkg/api/resource.Quantity' } },
      tags: { description: 'Tags.', type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' },
      inner: { description: 'Inner, as the field documents it.', default: {}, $ref: 'k8s.io/api/core/v1.Inner' },
    },
  },
  'k8s.io/api/core/v1.Inner': {
    description: 'Inner, as the type documents it.', type: 'object',
    properties: { key: { description: 'The key.', type: 'string', 'x-kubernetes-patch-strategy': 'merge' } },
    'x-kubernetes-map-type': 'atomic',
  },
  'k8s.io/apimachinery/pkg/api/resource.Quantity': { description: 'A quantity.', oneOf: [{ type: 'string' }, { type: 'number' }] },
};

describe('crdSchema', () => {
  it('expands a Kubernetes type as controller-gen writes it: +default kept, zero and {} defaults, enums and patch extensions dropped', () => {
    const s = crdSchema(Core('k8s.io/api/core/v1.Port', 'The field.'), defs);
    assert.deepEqual(s, {
      description: 'The field.', type: 'object', required: ['number'],
      properties: {
        number: { description: 'The number.', type: 'integer', format: 'int32' },
        protocol: { description: 'The protocol.\n\nPossible enum values:\n - `"TCP"`', type: 'string', default: 'TCP' },
        name: { description: 'The name.', type: 'string', default: '' },
        limits: {
          description: 'Limits.', type: 'object',
          additionalProperties: { description: 'A quantity.', anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: (s.properties as never)['limits']['additionalProperties']['pattern'] },
        },
        tags: { description: 'Tags.', type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' },
        inner: { description: 'Inner, as the field documents it.', type: 'object', properties: { key: { description: 'The key.', type: 'string' } }, 'x-kubernetes-map-type': 'atomic' },
      },
    });
    assert.match(String((s.properties as never)['limits']['additionalProperties']['pattern']), /^\^/);
  });

  it('an open expansion documents without constraining: no required, default, pattern or list markers; every object keeps unknown fields', () => {
    const s = crdSchema(CoreWith(Core('k8s.io/api/core/v1.Port', 'Port plus.'), { extra: Type.Optional(Str('Added by kruise.')) }, true), defs);
    assert.equal(s['x-kubernetes-preserve-unknown-fields'], true);
    assert.equal(s.required, undefined);
    const p = s.properties as Record<string, Record<string, unknown>>;
    assert.equal(p.protocol.default, undefined);
    assert.equal(p.tags['x-kubernetes-list-type'], undefined);
    assert.equal(p.inner['x-kubernetes-map-type'], undefined);
    assert.equal(p.inner['x-kubernetes-preserve-unknown-fields'], true);
    assert.equal((p.limits.additionalProperties as Record<string, unknown>).pattern, undefined);
    assert.deepEqual(p.extra, { description: 'Added by kruise.', type: 'string' });
  });

  it('fields kruise adds to an open type stay typed as upstream\'s (required kept)', () => {
    const s = crdSchema(CoreWith(Core('k8s.io/api/core/v1.Port', 'Port plus.'), { policy: Obj('A policy.', { type: Str('The type.') }) }, true), defs);
    const policy = (s.properties as Record<string, Record<string, unknown>>).policy;
    assert.deepEqual(policy.required, ['type']);
    assert.equal(policy['x-kubernetes-preserve-unknown-fields'], undefined);
  });

  it('required follows TypeBox optionality, overridden by CrdRequired / CrdOptional, sorted', () => {
    const s = crdSchema(Obj('x', {
      b: Str('b'), a: Str('a'), c: Type.Optional(Str('c')), d: CrdRequired(Str('d')), e: CrdOptional(Str('e')),
    }), defs);
    assert.deepEqual(s.required, ['a', 'b', 'd']);
  });

  it('an unknown definition name is an error, not an empty schema', () => {
    assert.throws(() => crdSchema(Core('k8s.io/api/core/v1.Nope', 'x'), defs), /no OpenAPI definition k8s.io\/api\/core\/v1.Nope/);
  });

  it('an open type is written schemaless, its own fields kept, with documentOpenTypes false or when marked CORE_SCHEMALESS', () => {
    const open = CoreWith(Core('k8s.io/api/core/v1.Port', 'The port.'), { extra: Type.Optional(Str('Kruise\'s own field.')) }, true);
    const documented = crdSchema(open, defs);
    assert.ok((documented.properties as Record<string, unknown>).number, 'expanded by default');
    const brief = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description: 'The port.', properties: { extra: { description: 'Kruise\'s own field.', type: 'string' } } };
    assert.deepEqual(crdSchema(open, defs, { documentOpenTypes: false }), brief);
    assert.deepEqual(crdSchema({ ...open, [CORE_SCHEMALESS]: true } as typeof open, defs), brief);
    // A closed type (not CORE_OPEN) is always expanded.
    assert.ok((crdSchema(Core('k8s.io/api/core/v1.Port', 'The field.'), defs, { documentOpenTypes: false }).properties as Record<string, unknown>).number);
  });
});
