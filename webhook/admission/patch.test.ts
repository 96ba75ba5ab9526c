// diffToPatch: applying the patch to the original must give exactly the mutated object, whatever changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fjp from 'fast-json-patch';
import { deepFreeze } from '../../shared/domain/frozen-json.js';
import { diffToPatch, opsJson, type PatchOp } from './patch.js';

function applied(original: unknown, patch: string | undefined): unknown {
  if (patch === undefined) return original;
  const ops = JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) as fjp.Operation[];
  return fjp.applyPatch(structuredClone(original), ops, true).newDocument;
}

const pod = () => ({
  metadata: { name: 'p', labels: { app: 'web' }, annotations: { 'a/b~c': '1' } },
  spec: { containers: [{ name: 'app', image: 'a:1', env: [{ name: 'TZ', value: 'UTC' }] }], volumes: [{ name: 'data', emptyDir: {} }] },
});

const cases: { name: string; mutate: (p: any) => void; maxOps?: number }[] = [
  { name: 'an unchanged object gives no patch', mutate: () => {}, maxOps: 0 },
  { name: 'a new annotation is added under a key needing ~ and / escapes', mutate: (p) => (p.metadata.annotations['x/y~z'] = 'v') },
  { name: 'a removed label and a changed label value', mutate: (p) => { p.metadata.labels = { tier: 'fe' }; } },
  { name: 'sidecars inserted before and after the app container are one add each', mutate: (p) => {
    p.spec.containers = [{ name: 's1', image: 's' }, ...p.spec.containers, ...Array.from({ length: 10 }, (_, i) => ({ name: `s${i + 2}`, image: 's' }))];
  }, maxOps: 11 },
  { name: 'a grown array whose own element also changed is replaced whole', mutate: (p) => {
    p.spec.containers = [{ name: 's1', image: 's' }, { ...p.spec.containers[0], image: 'a:2' }];
  }, maxOps: 1 },
  { name: 'a grown array with its own elements reordered is replaced whole', mutate: (p) => {
    p.spec.volumes = [{ name: 'v', emptyDir: {} }, ...p.spec.volumes];
    p.spec.volumes.reverse();
  } },
  { name: 'an env appended inside a container of an unchanged-length array', mutate: (p) => p.spec.containers[0].env.push({ name: 'X', value: '1' }) },
  { name: 'a container replaced in place by a same-named sidecar', mutate: (p) => (p.spec.containers[0] = { name: 'app', image: 'sidecar:2', ports: [] }) },
  { name: 'a shrunk array', mutate: (p) => (p.spec.volumes = []) },
  { name: 'a missing object created (spec.initContainers)', mutate: (p) => (p.spec.initContainers = [{ name: 'init', image: 'i' }]) },
  { name: 'a value changing type from object to array and from string to null', mutate: (p) => { p.spec.volumes[0].emptyDir = []; p.metadata.name = null; } },
  { name: 'a member set to undefined counts as removed, as in the JSON the apiserver sees', mutate: (p) => (p.metadata.labels = undefined) },
  { name: 'a readiness gate and a generated name added together', mutate: (p) => { p.spec.readinessGates = [{ conditionType: 'KruisePodReady' }]; p.metadata.generateName = 'web-'; } },
];

for (const tc of cases) {
  test(tc.name, () => {
    const original = pod();
    const mutated = structuredClone(original);
    tc.mutate(mutated);
    const before = structuredClone(original);
    const r = diffToPatch(original, mutated);
    assert.deepEqual(original, before, 'original untouched');
    assert.deepEqual(applied(original, r.patch), JSON.parse(JSON.stringify(mutated)));
    if (tc.maxOps !== undefined) assert.ok(r.ops <= tc.maxOps, `${r.ops} ops`);
    assert.equal(r.patch === undefined, r.ops === 0);
  });
}

test('the base64 patch is the UTF-8 of the op list, for small patches and ones too big for the reused buffer', () => {
  for (const size of [10, 30_000]) {
    const value = `${'x'.repeat(size)}ü😀\ud800é`;
    const r = diffToPatch({ a: 1 }, { a: 1, b: value });
    assert.equal(r.patch, Buffer.from(JSON.stringify([{ op: 'add', path: '/b', value }])).toString('base64'));
  }
});

test('opsJson writes exactly JSON.stringify(ops), with remembered texts of deep-frozen values', () => {
  const frozen = deepFreeze({ name: 's', image: 'x', env: [{ name: 'A', value: '1' }] });
  const ops: PatchOp[] = [
    { op: 'replace', path: '/spec/containers', value: [{ name: 'app' }, frozen, undefined, () => 1, null, [frozen]] },
    { op: 'add', path: '/metadata/annotations/a~1b', value: 'q"\\\u2028ü😀' },
    { op: 'remove', path: '/x' },
    { op: 'add', path: '/y', value: frozen },
    { op: 'replace', path: '', value: undefined },
    { op: 'add', path: '/d', value: new Date(0) },
    { op: 'add', path: '/n', value: [NaN, 1e21, -0] },
  ];
  assert.equal(opsJson(ops), JSON.stringify(ops));
  assert.equal(opsJson(ops), JSON.stringify(ops), 'the same from the remembered texts');
  assert.equal(opsJson([]), '[]');
});

test('a grown array that only gained elements: the adds leave the original elements out of the patch', () => {
  const original = pod();
  const mutated = { ...original, spec: { ...original.spec, containers: [{ name: 'before', image: 's' }, ...original.spec.containers, { name: 'after', image: 's' }] } };
  const r = diffToPatch(original, mutated);
  const ops = JSON.parse(Buffer.from(r.patch!, 'base64').toString('utf8')) as PatchOp[];
  assert.deepEqual(ops.map((o) => `${o.op} ${o.path}`), ['add /spec/containers/0', 'add /spec/containers/2']);
  assert.deepEqual(applied(original, r.patch), mutated);
});

test('random inserts, removals, replacements and reorders of array elements: the patch always gives the mutated array', () => {
  // A small deterministic generator, so a failure names its seed.
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n);
  for (let round = 0; round < 2_000; round++) {
    const start = seed;
    const items = Array.from({ length: rand(5) }, (_, i) => (rand(3) === 0 ? `s${i}` : { name: `c${i}`, n: i }));
    const next: unknown[] = [];
    for (const it of items) {
      const roll = rand(6);
      if (roll === 0) continue; // removed
      if (roll === 1) next.push({ name: 'changed' }); // replaced by a new value
      if (roll === 2) next.push({ name: `new${next.length}` }); // inserted before it
      next.push(it);
    }
    for (let k = rand(3); k > 0; k--) next.splice(rand(next.length + 1), 0, rand(2) ? `x${k}` : { name: `x${k}` });
    if (rand(4) === 0) next.reverse();
    const original = { list: items };
    const mutated = { list: next };
    const r = diffToPatch(original, mutated);
    assert.deepEqual(applied(original, r.patch), JSON.parse(JSON.stringify(mutated)), `seed ${start}`);
  }
});
