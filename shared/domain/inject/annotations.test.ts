import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, SidecarSetListAnnotation } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { formatUpgradeSpecMap, parseUpgradeSpecMap, withTail, type UpgradeSpec } from './annotations.js';
import { makeCtx, NOW_TEXT, pod1, sidecarSet1, sidecarSet3 } from './fixtures.js';
import { injectSidecars } from './index.js';

test('pod hash annotations copy the SidecarSet hashes in Go field order (TestSidecarSetHashInject)', () => {
  const set = sidecarSet1();
  set.status!.latestRevision = 'sidecarset1-5f6d95f777';
  const a = injectSidecars(pod1(), makeCtx([set])).metadata!.annotations!;
  assert.equal(
    a[SidecarSetHashAnnotation],
    `{"sidecarset1":{"updateTimestamp":"${NOW_TEXT}","hash":"c4k2dbb95d","sidecarSetName":"sidecarset1","sidecarList":["dns-f","log-agent"],"controllerRevision":"sidecarset1-5f6d95f777"}}`,
  );
  assert.equal(
    a[SidecarSetHashWithoutImageAnnotation],
    `{"sidecarset1":{"updateTimestamp":"${NOW_TEXT}","hash":"gm967682cm","sidecarSetName":"sidecarset1","sidecarList":["dns-f","log-agent"]}}`,
  );
});

test('controllerRevision is omitted without status.latestRevision and a missing hash annotation becomes ""', () => {
  const set = sidecarSet1();
  delete set.metadata!.annotations;
  const a = injectSidecars(pod1(), makeCtx([set])).metadata!.annotations!;
  assert.equal(a[SidecarSetHashAnnotation], `{"sidecarset1":{"updateTimestamp":"${NOW_TEXT}","hash":"","sidecarSetName":"sidecarset1","sidecarList":["dns-f","log-agent"]}}`);
});

test('legacy map[string]string hash annotations are converted and kept (TestPodSidecarSetHashCompatibility)', () => {
  const pod = pod1();
  pod.metadata!.annotations = { [SidecarSetHashAnnotation]: '{"old-set":"abc"}', [SidecarSetHashWithoutImageAnnotation]: '{"old-set":"def"}' };
  const a = injectSidecars(pod, makeCtx([sidecarSet3()])).metadata!.annotations!;
  const parsed = JSON.parse(a[SidecarSetHashAnnotation]!);
  assert.deepEqual(parsed['old-set'], { updateTimestamp: null, hash: 'abc', sidecarSetName: 'old-set', sidecarList: null });
  assert.equal(parsed.sidecarset3.hash, 'gm967682cm');
  assert.ok(a[SidecarSetHashAnnotation]!.startsWith('{"old-set":'), 'keys are sorted');
  assert.equal(JSON.parse(a[SidecarSetHashWithoutImageAnnotation]!)['old-set'].hash, 'def');
});

test('existing entries of other SidecarSets are kept with their timestamp normalised to UTC seconds', () => {
  const pod = pod1();
  pod.metadata!.annotations = {
    [SidecarSetHashAnnotation]: '{"zz":{"updateTimestamp":"2020-05-06T09:10:11.5+02:00","hash":"h","sidecarSetName":"zz","sidecarList":["c"],"extra":1}}',
  };
  const a = injectSidecars(pod, makeCtx([sidecarSet3()])).metadata!.annotations!;
  assert.ok(a[SidecarSetHashAnnotation]!.endsWith(',"zz":{"updateTimestamp":"2020-05-06T07:10:11Z","hash":"h","sidecarSetName":"zz","sidecarList":["c"]}}'));
});

const garbage = ['not json', '["a"]', '{"a":{"hash":5}}', '{"a":{"updateTimestamp":"yesterday"}}', '{"a":"legacy","b":{"hash":"x"}}'];
for (const raw of garbage) {
  test(`an unparseable hash annotation ${JSON.stringify(raw)} refuses the pod with a 400`, () => {
    const pod = pod1();
    pod.metadata!.annotations = { [SidecarSetHashAnnotation]: raw };
    assert.throws(
      () => injectSidecars(pod, makeCtx([sidecarSet1()])),
      (e: unknown) => e instanceof AdmissionDeniedError && e.code === 400 && e.message.startsWith(`pod(default/test-pod-1) invalid annotations[${SidecarSetHashAnnotation}] value`),
    );
  });
}

test('an empty hash annotation counts as absent', () => {
  assert.equal(parseUpgradeSpecMap('', SidecarSetHashAnnotation, 'ns/p').size, 0);
});

test('the injected list merges existing names, sorted (TestSidecarSetNameInject)', () => {
  const pod = pod1();
  pod.metadata!.annotations = { [SidecarSetListAnnotation]: 'sidecarset3' };
  assert.equal(injectSidecars(pod, makeCtx([sidecarSet1()])).metadata!.annotations![SidecarSetListAnnotation], 'sidecarset1,sidecarset3');
  assert.equal(injectSidecars(pod1(), makeCtx([sidecarSet3(), sidecarSet1()])).metadata!.annotations![SidecarSetListAnnotation], 'sidecarset1,sidecarset3');
});

test('an entry rendered ahead with withTail formats exactly like the plain entry, whatever its timestamp', () => {
  const plain: UpgradeSpec = { updateTimestamp: '2026-01-02T03:04:05Z', hash: 'h"1', sidecarSetName: 's<1>', sidecarList: ['a', 'b\u2028'], controllerRevision: 'r-1' };
  const rendered = withTail({ ...plain, updateTimestamp: null });
  for (const ts of ['2026-01-02T03:04:05Z', null]) {
    assert.equal(formatUpgradeSpecMap(new Map([['s', { ...rendered, updateTimestamp: ts }]])), formatUpgradeSpecMap(new Map([['s', { ...plain, updateTimestamp: ts }]])));
  }
  const noRevision = { ...plain, controllerRevision: undefined, sidecarList: null };
  assert.equal(formatUpgradeSpecMap(new Map([['s', withTail(noRevision)]])), formatUpgradeSpecMap(new Map([['s', noRevision]])));
});

test('a stored SidecarSet whose hash changes (new object or new resourceVersion) writes the new hash', () => {
  const hashOf = (set: ReturnType<typeof sidecarSet1>) => JSON.parse(injectSidecars(pod1(), makeCtx([set])).metadata!.annotations![SidecarSetHashAnnotation]!).sidecarset1.hash;
  const set = sidecarSet1();
  set.metadata!.resourceVersion = '7';
  assert.equal(hashOf(set), 'c4k2dbb95d');
  assert.equal(hashOf(set), 'c4k2dbb95d');
  const changed = sidecarSet1();
  changed.metadata!.resourceVersion = '8';
  changed.metadata!.annotations![SidecarSetHashAnnotation] = 'new-hash';
  assert.equal(hashOf(changed), 'new-hash');
  set.metadata!.annotations![SidecarSetHashAnnotation] = 'edited-hash';
  set.metadata!.resourceVersion = '9';
  assert.equal(hashOf(set), 'edited-hash');
});
