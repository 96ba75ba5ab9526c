import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarSet, SidecarSetPatchPodMetadata } from '../../api/sidecarset.js';
import { SidecarSetHashAnnotation } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { makeCtx, pod1, sidecarSet1 } from './fixtures.js';
import { injectSidecars } from './index.js';
import { mergePatch, MergePatchError } from './merge-patch.js';

const withPatches = (name: string, patches: SidecarSetPatchPodMetadata[]): SidecarSet => {
  const s = sidecarSet1();
  s.metadata!.name = name;
  s.spec!.patchPodMetadata = patches;
  return s;
};

test('two MergePatchJson SidecarSets merge into one sorted object and Retain keeps the pod value (TestInjectMetadata)', () => {
  const pod = pod1();
  pod.metadata!.annotations = { 'oom-score': '{"log-agent": 1}', 'cpu-policy': 'pod-own' };
  const s1 = withPatches('sidecarset1', [{ patchPolicy: 'MergePatchJson', annotations: { 'oom-score': '{"log-agent":1}' } }, { patchPolicy: 'Retain', annotations: { 'cpu-policy': 'from-set' } }]);
  const s2 = withPatches('sidecarset2', [{ patchPolicy: 'MergePatchJson', annotations: { 'oom-score': '{"envoy":2}' } }]);
  s2.spec!.containers = [{ name: 'envoy', image: 'envoy' }];
  delete s2.spec!.initContainers;
  const out = injectSidecars(pod, makeCtx([s1, s2]));
  assert.equal(out.metadata!.annotations!['oom-score'], '{"envoy":2,"log-agent":1}');
  assert.equal(out.metadata!.annotations!['cpu-policy'], 'pod-own');
});

test('Overwrite replaces and Retain adds an absent key', () => {
  const pod = pod1();
  pod.metadata!.annotations = { a: 'pod' };
  const out = injectSidecars(pod, makeCtx([withPatches('s', [{ patchPolicy: 'Overwrite', annotations: { a: 'set' } }, { annotations: { b: 'new' } }])]));
  assert.equal(out.metadata!.annotations!.a, 'set');
  assert.equal(out.metadata!.annotations!.b, 'new');
});

test('MergePatchJson on an absent or empty annotation stores the patch verbatim', () => {
  const pod = pod1();
  pod.metadata!.annotations = { empty: '' };
  const out = injectSidecars(pod, makeCtx([withPatches('s', [{ patchPolicy: 'MergePatchJson', annotations: { absent: '{ "b":1, "a":2 }', empty: '[1]' } }])]));
  assert.equal(out.metadata!.annotations!.absent, '{ "b":1, "a":2 }');
  assert.equal(out.metadata!.annotations!.empty, '[1]');
});

test('invalid JSON in the pod annotation refuses the pod with a 400 naming the key', () => {
  const pod = pod1();
  pod.metadata!.annotations = { cfg: 'not-json' };
  assert.throws(
    () => injectSidecars(pod, makeCtx([withPatches('s', [{ patchPolicy: 'MergePatchJson', annotations: { cfg: '{"a":1}' } }])])),
    (e: unknown) => e instanceof AdmissionDeniedError && e.code === 400 && /Invalid JSON Document/.test(e.message) && /cfg/.test(e.message),
  );
});

test('metadata is patched even when the SidecarSet injects no container, and no hash annotation is written', () => {
  const s = withPatches('meta-only', [{ patchPolicy: 'Overwrite', annotations: { k: 'v' } }]);
  s.spec = { selector: s.spec!.selector, patchPodMetadata: s.spec!.patchPodMetadata };
  const out = injectSidecars(pod1(), makeCtx([s]));
  assert.deepEqual(out.metadata!.annotations, { k: 'v' });
  assert.equal(out.spec!.containers.length, 1);
  assert.equal((out.metadata!.annotations as Record<string, string>)[SidecarSetHashAnnotation], undefined);
});

const mergeCases: { name: string; doc: string; patch: string; want: string | 'document' | 'patch' }[] = [
  { name: 'null in the patch deletes a key', doc: '{"a":1,"b":2}', patch: '{"a":null}', want: '{"b":2}' },
  { name: 'nested objects merge and keys are sorted at merged levels', doc: '{"z":{"y":1},"a":0}', patch: '{"z":{"x":2}}', want: '{"a":0,"z":{"x":2,"y":1}}' },
  { name: 'untouched nested values keep their text, compacted', doc: '{"k": {"b": 1, "a": [1, 2]}}', patch: '{"n":1}', want: '{"k":{"b":1,"a":[1,2]},"n":1}' },
  { name: 'HTML characters are escaped as Go does', doc: '{"a":"<&>"}', patch: '{}', want: '{"a":"\\u003c\\u0026\\u003e"}' },
  { name: 'nulls inside a newly added object are pruned', doc: '{}', patch: '{"a":{"b":null,"c":1}}', want: '{"a":{"c":1}}' },
  { name: 'an array patch becomes the result (evanphx v5 incompatible mode)', doc: '{"a":1}', patch: '[1,{"x":null}]', want: '[1,{}]' },
  { name: 'a non-object document is replaced by the patch', doc: '[1]', patch: '{"a":1}', want: '{"a":1}' },
  { name: 'a scalar patch is invalid', doc: '{"a":1}', patch: '5', want: 'patch' },
  { name: 'a null document is invalid', doc: 'null', patch: '{}', want: 'document' },
  { name: 'malformed patch text is invalid', doc: '{}', patch: '{', want: 'patch' },
];
for (const tc of mergeCases) {
  test(`merge patch: ${tc.name}`, () => {
    if (tc.want === 'document' || tc.want === 'patch') {
      assert.throws(() => mergePatch(tc.doc, tc.patch), (e: unknown) => e instanceof MergePatchError && e.which === tc.want);
    } else assert.equal(mergePatch(tc.doc, tc.patch), tc.want);
  });
}
