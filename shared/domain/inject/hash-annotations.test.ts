import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, SidecarSetListAnnotation } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { jsonText } from '../frozen-json.js';
import { withTail } from './annotations.js';
import { hashAnnotations, type SetEntries } from './hash-annotations.js';

const entries = (name: string, hash: string, list: string[], rev?: string): SetEntries => ({
  name,
  entries: {
    hash: withTail({ updateTimestamp: null, hash, sidecarSetName: name, sidecarList: list, ...(rev ? { controllerRevision: rev } : {}) }),
    hashWithoutImage: withTail({ updateTimestamp: null, hash: `${hash}-wo`, sidecarSetName: name, sidecarList: [...list] }),
  },
});

const sets: SetEntries[] = [
  entries('zeta', 'h1', ['b', 'a']),
  { name: 'no-containers' },
  entries('alpha', 'h2', ['c'], 'alpha-rev'),
  entries('ünïcode<&>', 'h"3', ['x\u2028']),
];

test('templated annotations are exactly those rendered entry by entry, for every timestamp', () => {
  for (let i = 0; i < 3; i++) {
    for (const ts of ['2026-01-02T03:04:05Z', '2027-12-31T23:59:59Z']) {
      for (const n of [0, 1, 2, 4]) {
        const s = sets.slice(0, n);
        const got = hashAnnotations(s, {}, ts, 'ns/p', true);
        assert.deepEqual(got, hashAnnotations(s, {}, ts, 'ns/p', false), `${n} sets at ${ts}`);
        for (const v of Object.values(got)) assert.equal(jsonText(v), JSON.stringify(v), 'the remembered JSON of the value');
      }
    }
  }
  const a = hashAnnotations(sets, {}, '2026-01-02T03:04:05Z', 'ns/p', true);
  assert.equal(a[SidecarSetListAnnotation], 'alpha,no-containers,zeta,ünïcode<&>');
  const parsed = JSON.parse(a[SidecarSetHashAnnotation]);
  assert.deepEqual(Object.keys(parsed), ['alpha', 'zeta', 'ünïcode<&>']);
  assert.deepEqual(parsed.alpha, { updateTimestamp: '2026-01-02T03:04:05Z', hash: 'h2', sidecarSetName: 'alpha', sidecarList: ['c'], controllerRevision: 'alpha-rev' });
  assert.ok(a[SidecarSetHashAnnotation].includes('\\u003c\\u0026\\u003e'), 'Go escapes < & > in keys');
  assert.equal(JSON.parse(a[SidecarSetHashWithoutImageAnnotation])['ünïcode<&>'].hash, 'h"3-wo');
});

test('a pod that already carries the annotations keeps the other SidecarSets and refuses garbage', () => {
  const existing = {
    [SidecarSetHashAnnotation]: '{"old":{"updateTimestamp":"2020-01-01T00:00:00Z","hash":"o","sidecarSetName":"old","sidecarList":["s"]}}',
    [SidecarSetListAnnotation]: 'old',
  };
  const a = hashAnnotations(sets.slice(0, 1), existing, '2026-01-02T03:04:05Z', 'ns/p', true);
  assert.deepEqual(Object.keys(JSON.parse(a[SidecarSetHashAnnotation])), ['old', 'zeta']);
  assert.equal(a[SidecarSetListAnnotation], 'old,zeta');
  assert.throws(() => hashAnnotations(sets, { [SidecarSetHashWithoutImageAnnotation]: '[1]' }, '2026-01-02T03:04:05Z', 'ns/p', true), AdmissionDeniedError);
});
