import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeReview } from './encode.js';
import { allowed, denied, errored, patched, type AdmissionResult } from './response.js';
import { diffToPatch } from './patch.js';

const patch = diffToPatch({ metadata: { name: 'p' } }, { metadata: { name: 'p', labels: { 'a/ü"\\': 'x\u2028<>&' } } });

const cases: { name: string; apiVersion: string; uid: string; result: AdmissionResult }[] = [
  { name: 'allowed without a patch', apiVersion: 'admission.k8s.io/v1', uid: 'u-1', result: allowed() },
  { name: 'allowed with a message', apiVersion: 'admission.k8s.io/v1beta1', uid: 'u-2', result: allowed('allowed to be admitted') },
  { name: 'patched (non-ASCII values inside the patch)', apiVersion: 'admission.k8s.io/v1', uid: 'u-3', result: patched(patch) },
  { name: 'patched with warnings', apiVersion: 'admission.k8s.io/v1', uid: 'u-4', result: { ...patched(patch), warnings: ['w "1"'] } },
  { name: 'denied with characters JSON must escape', apiVersion: 'admission.k8s.io/v1', uid: 'u-"5"\n', result: denied('bad "value"\\ \u0001 ü') },
  { name: 'errored 500', apiVersion: 'admission.k8s.io/v1', uid: 'u-6', result: errored(500, new Error('internal error: x')) },
  { name: 'patched, with a non-ASCII uid and message before the patch', apiVersion: 'admission.k8s.io/v1', uid: 'ü-7-😀', result: { ...patched(patch), status: { code: 200, message: 'é\u2028' } } },
  { name: 'a uid and message that look like a patch member', apiVersion: 'admission.k8s.io/v1', uid: '"patch":"x"}}', result: { ...patched(patch), status: { code: 200, message: ',"patch":"' } } },
];

for (const tc of cases) {
  test(`encodeReview: ${tc.name} parses to the review object`, () => {
    const text = encodeReview(tc.apiVersion, tc.uid, tc.result).toString('utf8');
    assert.deepEqual(JSON.parse(text), { apiVersion: tc.apiVersion, kind: 'AdmissionReview', response: { uid: tc.uid, ...tc.result } });
  });
}

test('encodeReview writes the patch verbatim, as the base64 diffToPatch made', () => {
  const text = encodeReview('admission.k8s.io/v1', 'u', patched(patch)).toString('utf8');
  assert.ok(text.endsWith(`"patch":"${patch.patch}"}}`));
  assert.deepEqual(JSON.parse(Buffer.from(JSON.parse(text).response.patch, 'base64').toString('utf8')), [
    { op: 'add', path: '/metadata/labels', value: { 'a/ü"\\': 'x\u2028<>&' } },
  ]);
});
