import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImageListPullJob, ImageListPullJobSpec } from '../../api/image-list-pull-job.js';
import { formatViolations } from '../../errors.js';
import { defaultImageListPullJob, validateImageListPullJob } from './image-list-pull-job.js';

const job = (spec: Partial<ImageListPullJobSpec> = {}): ImageListPullJob =>
  defaultImageListPullJob({ metadata: { name: 'l', namespace: 'default' }, spec: { images: ['nginx:1', 'busybox:1.36'], completionPolicy: {}, ...spec } });

describe('defaultImageListPullJob (spec/openkruise-v1.9.md §6)', () => {
  it('fills completionPolicy.type and pullPolicy, and nothing else (no imagePullPolicy, no finalizer)', () => {
    const out = job();
    assert.deepEqual(out.spec, { images: ['nginx:1', 'busybox:1.36'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
    assert.equal(out.metadata?.finalizers, undefined);
  });
  it('keeps user values and fills the missing half of pullPolicy', () => {
    const out = job({ completionPolicy: { type: 'Never' }, pullPolicy: { backoffLimit: 1 }, imagePullPolicy: 'Always' });
    assert.deepEqual(out.spec?.pullPolicy, { timeoutSeconds: 600, backoffLimit: 1 });
    assert.equal(out.spec?.completionPolicy.type, 'Never');
    assert.equal(out.spec?.imagePullPolicy, 'Always');
  });
  it('does not modify its argument', () => {
    const input: ImageListPullJob = { metadata: { name: 'l' }, spec: { images: ['a'], completionPolicy: {} } };
    defaultImageListPullJob(input);
    assert.deepEqual(input.spec?.completionPolicy, {});
  });
});

describe('validateImageListPullJob: each rule and its message, in upstream order', () => {
  const many = Array.from({ length: 256 }, (_, i) => `registry.example/img-${i}:1`);
  const cases: { name: string; spec: Partial<ImageListPullJobSpec>; err?: string }[] = [
    { name: 'a valid job', spec: {} },
    { name: 'names with matchLabels', spec: { selector: { names: ['a'], matchLabels: { a: 'b' } } }, err: 'can not set both names and labelSelector in this spec.selector' },
    { name: 'an invalid label selector', spec: { selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }, err: 'invalid selector: ' },
    { name: 'duplicated names', spec: { selector: { names: ['a', 'a'] } }, err: 'duplicated name in selector names' },
    { name: 'selector and podSelector', spec: { selector: { names: ['a'] }, podSelector: { matchLabels: { app: 'x' } } }, err: 'can not set both selector and podSelector' },
    { name: 'an invalid podSelector', spec: { podSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }, err: 'invalid podSelector: ' },
    { name: 'no images', spec: { images: [] }, err: 'image can not be empty' },
    { name: 'duplicated images', spec: { images: ['nginx:1', 'busybox', 'nginx:1'] }, err: 'images cannot have duplicate values' },
    { name: '256 images', spec: { images: many }, err: 'the maximum number of images cannot > 255' },
    { name: '255 images', spec: { images: many.slice(1) } },
    { name: 'an unparsable image', spec: { images: ['nginx:1', 'Bad Image'] }, err: 'invalid image Bad Image: ' },
    { name: 'Never with a deadline', spec: { completionPolicy: { type: 'Never', activeDeadlineSeconds: 10 } }, err: 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType' },
    { name: 'Never with a TTL', spec: { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } }, err: 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType' },
    { name: 'an unknown completion type', spec: { completionPolicy: { type: 'Sometimes' } }, err: 'unknown type of completionPolicy: Sometimes' },
    // Unlike ImagePullJob: no deadline-vs-timeout rule, no parallelism rule.
    { name: 'Always with a deadline below the pull timeout', spec: { completionPolicy: { type: 'Always', activeDeadlineSeconds: 1 } } },
    { name: 'a percentage parallelism', spec: { parallelism: '50%' } },
    // First failure wins: the selector rule comes before the image rules.
    { name: 'both a selector error and no images', spec: { images: [], selector: { names: ['a', 'a'] } }, err: 'duplicated name in selector names' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const vs = validateImageListPullJob(job(c.spec));
      if (!c.err) return assert.deepEqual(vs, []);
      assert.equal(vs.length, 1, JSON.stringify(vs));
      assert.ok(vs[0]!.detail.startsWith(c.err), vs[0]!.detail);
    });
  }
  it('renders a duplicate with the field and the value', () => {
    assert.equal(formatViolations(validateImageListPullJob(job({ images: ['a', 'a'] }))), 'spec.images: Duplicate value: "a": images cannot have duplicate values');
  });
});

describe('validateImageListPullJob: the children\'s pullSecrets cap (kruise-ts, review N-M3)', () => {
  it('65 pull secrets are refused as on an ImagePullJob', () => {
    const pullSecrets = Array.from({ length: 65 }, (_, i) => `s${i}`);
    assert.equal(formatViolations(validateImageListPullJob(job({ pullSecrets }))), 'spec.pullSecrets: Too many: 65: must have at most 64 items');
  });
});
