import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import type { ImagePullJob, ImagePullJobSpec } from '../../api/image-pull-job.js';
import { formatViolations } from '../../errors.js';
import { defaultImagePullJob, imagePullJobDenialCode, MaxPullSecretsPerJob, validateImagePullJob } from './image-pull-job.js';

const job = (spec: Partial<ImagePullJobSpec> = {}): ImagePullJob =>
  defaultImagePullJob({ metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:latest', completionPolicy: {}, ...spec } });

describe('defaultImagePullJob', () => {
  it('fills completionPolicy, pullPolicy, imagePullPolicy and the finalizer on CREATE', () => {
    const out = job();
    assert.deepEqual(out.spec, { image: 'nginx:latest', completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' });
    assert.deepEqual(out.metadata?.finalizers, ['apps.kruise.io/deletion-protection']);
  });
  it('does not re-add the finalizer on UPDATE', () => {
    const out = defaultImagePullJob({ metadata: { name: 'j' }, spec: { image: 'nginx', completionPolicy: {} } }, 'UPDATE');
    assert.equal(out.metadata?.finalizers, undefined);
  });
  it('keeps user values', () => {
    const out = job({ pullPolicy: { timeoutSeconds: 30 }, completionPolicy: { type: 'Never' }, imagePullPolicy: 'Always' });
    assert.deepEqual(out.spec?.pullPolicy, { timeoutSeconds: 30, backoffLimit: 3 });
    assert.equal(out.spec?.completionPolicy.type, 'Never');
    assert.equal(out.spec?.imagePullPolicy, 'Always');
  });
});

// Upstream TestValidateParallelismV1alpha1 and TestValidateParallelismV1beta1 share their vectors (both versions
// have the same fields); kruise-ts validates either version with the same function.
for (const version of ['V1alpha1', 'V1beta1']) {
  describe(`validateImagePullJob: parallelism (upstream TestValidateParallelism${version})`, () => {
    const cases: { name: string; p: number | string | undefined; err?: string }[] = [
      { name: 'valid integer parallelism', p: 2 },
      { name: 'valid zero parallelism', p: 0 },
      { name: 'invalid negative parallelism', p: -1, err: 'parallelism must be non-negative' },
      { name: 'invalid percentage parallelism', p: '50%', err: 'parallelism does not support percentage value' },
      { name: 'valid string integer parallelism', p: '50' },
      { name: 'valid string zero parallelism', p: '0' },
      { name: 'invalid string negative parallelism', p: '-1', err: 'parallelism must be non-negative' },
      { name: 'invalid string non-numeric parallelism', p: 'abc', err: 'parallelism must be a valid integer: strconv.ParseInt: parsing "abc": invalid syntax' },
      { name: 'nil parallelism', p: undefined },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const errs = validateImagePullJob(job({ parallelism: c.p }), undefined);
        if (c.err) assert.deepEqual(errs.map((e) => e.detail), [c.err]);
        else assert.deepEqual(errs, []);
      });
    }
  });
}

describe('validateImagePullJob: parallelism strings as Go ParseInt(s, 10, 32) reads them', () => {
  const cases: [string, string | undefined][] = [
    ['+7', undefined],
    ['2147483647', undefined],
    ['2147483648', 'parallelism must be a valid integer: strconv.ParseInt: parsing "2147483648": value out of range'],
    ['-2147483649', 'parallelism must be a valid integer: strconv.ParseInt: parsing "-2147483649": value out of range'],
    ['', 'parallelism must be a valid integer: strconv.ParseInt: parsing "": invalid syntax'],
    [' 1', 'parallelism must be a valid integer: strconv.ParseInt: parsing " 1": invalid syntax'],
    ['1.5', 'parallelism must be a valid integer: strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['0x10', 'parallelism must be a valid integer: strconv.ParseInt: parsing "0x10": invalid syntax'],
    ['1_000', 'parallelism must be a valid integer: strconv.ParseInt: parsing "1_000": invalid syntax'],
    ['a\tb', 'parallelism must be a valid integer: strconv.ParseInt: parsing "a\\tb": invalid syntax'],
  ];
  for (const [p, err] of cases) {
    it(JSON.stringify(p), () => assert.deepEqual(validateImagePullJob(job({ parallelism: p }), undefined).map((e) => e.detail), err ? [err] : []));
  }
  it('the image is checked before parallelism (upstream validate order)', () => {
    assert.deepEqual(validateImagePullJob(job({ image: '', parallelism: '50%' }), undefined).map((e) => e.detail), ['image can not be empty']);
  });
});

describe('validateImagePullJob: other rules', () => {
  const cases: { name: string; spec: Partial<ImagePullJobSpec>; err?: string }[] = [
    { name: 'names together with matchLabels are refused', spec: { selector: { names: ['n1'], matchLabels: { a: 'b' } } }, err: 'can not set both names and labelSelector in this spec.selector' },
    { name: 'duplicated node names are refused', spec: { selector: { names: ['n1', 'n1'] } }, err: 'duplicated name in selector names' },
    { name: 'an invalid node selector is refused', spec: { selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }, err: 'invalid selector: ' },
    { name: 'selector together with podSelector is refused', spec: { selector: { names: ['n1'] }, podSelector: { matchLabels: { a: 'b' } } }, err: 'can not set both selector and podSelector' },
    { name: 'an empty image is refused', spec: { image: '' }, err: 'image can not be empty' },
    { name: 'an unparsable image is refused', spec: { image: 'Bad/Image' }, err: 'invalid image Bad/Image: ' },
    { name: 'Always with a deadline under the pull timeout is refused', spec: { completionPolicy: { type: 'Always', activeDeadlineSeconds: 100 } }, err: 'completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)' },
    { name: 'Always with a deadline equal to the timeout is allowed', spec: { completionPolicy: { type: 'Always', activeDeadlineSeconds: 600 } } },
    { name: 'Never with a ttl is refused', spec: { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } }, err: 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType' },
    { name: 'Never alone is allowed', spec: { completionPolicy: { type: 'Never' } } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateImagePullJob(job(c.spec), undefined);
      if (c.err) assert.ok(errs.length === 1 && errs[0]!.detail.startsWith(c.err), JSON.stringify(errs));
      else assert.deepEqual(errs, []);
    });
  }

  it('an unknown completionPolicy type is refused', () => {
    const obj = job();
    obj.spec!.completionPolicy.type = 'Sometimes';
    assert.equal(validateImagePullJob(obj, undefined)[0]?.detail, 'unknown type of completionPolicy: Sometimes');
  });
});

describe('validateImagePullJob: pullSecrets immutability (upstream TestPullSecretsImmutability)', () => {
  const cases: { name: string; old: string[] | undefined; now: string[] | undefined; denied: boolean }[] = [
    { name: 'unchanged pullSecrets pass', old: ['a', 'b'], now: ['a', 'b'], denied: false },
    { name: 'both absent pass', old: undefined, now: undefined, denied: false },
    { name: 'both empty pass', old: [], now: [], denied: false },
    { name: 'a secret added is denied', old: ['a'], now: ['a', 'b'], denied: true },
    { name: 'a secret removed is denied', old: ['a', 'b'], now: ['a'], denied: true },
    { name: 'a secret renamed is denied', old: ['a'], now: ['c'], denied: true },
    { name: 'reordered secrets are denied (deep equality keeps order)', old: ['a', 'b'], now: ['b', 'a'], denied: true },
    { name: 'absent to empty is denied', old: undefined, now: [], denied: true },
    { name: 'empty to absent is denied', old: [], now: undefined, denied: true },
    { name: 'absent to one is denied', old: undefined, now: ['a'], denied: true },
    { name: 'all removed is denied', old: ['a'], now: undefined, denied: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateImagePullJob(job({ pullSecrets: c.now }), job({ pullSecrets: c.old }));
      if (!c.denied) return assert.deepEqual(errs, []);
      assert.deepEqual(errs.map((e) => [e.field, e.detail]), [['spec.pullSecrets', 'spec.pullSecrets is immutable']]);
      assert.equal(imagePullJobDenialCode(errs[0]!), 403);
    });
  }
  it('a create is never an immutability violation', () => assert.deepEqual(validateImagePullJob(job({ pullSecrets: ['a'] }), undefined), []));
  it('other changes keep working on update', () => {
    const old = job({ pullSecrets: ['a', 'b'] });
    assert.deepEqual(validateImagePullJob(job({ pullSecrets: ['a', 'b'], parallelism: 5 }), old), []);
  });
  it('immutability is checked before every other rule', () => {
    const errs = validateImagePullJob(job({ pullSecrets: ['x'], image: '', parallelism: '50%' }), job({ pullSecrets: ['a'] }));
    assert.deepEqual(errs.map((e) => e.detail), ['spec.pullSecrets is immutable']);
  });
  it('parallelism errors answer 400', () => {
    const errs = validateImagePullJob(job({ parallelism: -1 }), undefined);
    assert.equal(imagePullJobDenialCode(errs[0]!), 400);
  });
});

describe('the ImagePullJob example', () => {
  it('10-imagepulljob.yaml validates after defaulting', () => {
    const doc = yaml.load(readFileSync(new URL('../../../e2e/cluster/examples/10-imagepulljob.yaml', import.meta.url), 'utf8')) as ImagePullJob;
    assert.deepEqual(validateImagePullJob(defaultImagePullJob(doc), undefined), []);
  });
});

describe('validateImagePullJob: pullSecrets capped at MaxPullSecretsPerJob (kruise-ts, review N-M3)', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
  it('64 pass; 65 are refused with apimachinery\'s TooMany message', () => {
    assert.deepEqual(validateImagePullJob(job({ pullSecrets: names(MaxPullSecretsPerJob) }), undefined), []);
    assert.equal(formatViolations(validateImagePullJob(job({ pullSecrets: names(65) }), undefined)), 'spec.pullSecrets: Too many: 65: must have at most 64 items');
    assert.equal(formatViolations(validateImagePullJob(job({ pullSecrets: names(10_000) }), undefined)), 'spec.pullSecrets: Too many: 10000: must have at most 64 items');
  });
});
