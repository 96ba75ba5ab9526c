import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { alignTag, tagPullPolicy } from './tag-policy.js';

const s = { defaultTtlSecondsForAlways: 300 };
const job = (spec: Partial<ImagePullJob['spec']> & { completionPolicy?: ImagePullJob['spec'] extends infer S ? S extends { completionPolicy: infer C } ? C : never : never }): ImagePullJob => ({
  metadata: { name: 'j', namespace: 'ns', uid: 'u' },
  spec: { image: 'nginx:1', completionPolicy: { type: 'Always' }, imagePullPolicy: 'IfNotPresent', ...spec },
});
const zero = () => 0;
const top = () => 0.9999;

test('derived pull policy per completion type', () => {
  const cases = [
    { name: 'Always with ttl: ttl + 300 + rand(0..299)', j: job({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 60 }, pullPolicy: { timeoutSeconds: 100, backoffLimit: 2 } }),
      low: { ttlSecondsAfterFinished: 360, timeoutSeconds: 100, backoffLimit: 2 }, high: 659 },
    { name: 'Always with deadline only: deadline is the base and is passed on', j: job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 900 } }),
      low: { ttlSecondsAfterFinished: 1200, activeDeadlineSeconds: 900 }, high: 1499 },
    { name: 'Always with neither: timeout × backoff (defaults 600 × 3)', j: job({}), low: { ttlSecondsAfterFinished: 2100 }, high: 2399 },
    { name: 'Always with neither, custom pull policy', j: job({ pullPolicy: { timeoutSeconds: 10, backoffLimit: 1 } }),
      low: { ttlSecondsAfterFinished: 310, timeoutSeconds: 10, backoffLimit: 1 }, high: 609 },
    { name: 'Never: 24 h ± 10 min, deadline max(1800, timeout)', j: job({ completionPolicy: { type: 'Never' }, pullPolicy: { timeoutSeconds: 3600 } }),
      low: { ttlSecondsAfterFinished: 85800, timeoutSeconds: 3600, activeDeadlineSeconds: 3600 }, high: 86999 },
    { name: 'Never with a short timeout: deadline 1800', j: job({ completionPolicy: { type: 'Never' } }),
      low: { ttlSecondsAfterFinished: 85800, activeDeadlineSeconds: 1800 }, high: 86999 },
  ];
  for (const tc of cases) {
    assert.deepEqual(tagPullPolicy(tc.j, s, zero), tc.low, tc.name);
    assert.equal(tagPullPolicy(tc.j, s, top).ttlSecondsAfterFinished, tc.high, tc.name);
  }
  assert.equal(tagPullPolicy(job({}), { defaultTtlSecondsForAlways: 0 }, zero).ttlSecondsAfterFinished, 1800, 'the default TTL is configurable');
});

test('a written tag is aligned with an edited job (openkruise/kruise#2221)', () => {
  const j = job({ pullPolicy: { timeoutSeconds: 15, backoffLimit: 1 } });
  const written = { tag: '1', pullPolicy: tagPullPolicy(j, s, () => 0.5), imagePullPolicy: 'IfNotPresent' };
  assert.equal(alignTag(written, j, s, zero), undefined, 'unchanged job: nothing to do, whatever TTL was drawn');
  const edited = job({ pullPolicy: { timeoutSeconds: 10, backoffLimit: 1 } });
  assert.deepEqual(alignTag(written, edited, s, zero), {
    pullPolicy: { timeoutSeconds: 10, backoffLimit: 1, ttlSecondsAfterFinished: 465 }, imagePullPolicy: 'IfNotPresent',
  }, 'timeout edited: new timeout; the TTL drawn before (15 + 300 + 150) is still inside [310, 610) and kept');
  const longer = job({ pullPolicy: { timeoutSeconds: 600, backoffLimit: 1 } });
  assert.deepEqual(alignTag(written, longer, s, zero)?.pullPolicy, { timeoutSeconds: 600, backoffLimit: 1, ttlSecondsAfterFinished: 900 },
    'a TTL outside the new range [900, 1200) is drawn again');
  const ttlEdited = job({ pullPolicy: { timeoutSeconds: 15, backoffLimit: 1 }, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 15 * 1 + 150 } });
  assert.equal(alignTag(written, ttlEdited, s, zero), undefined, 'TTL still inside the new range is kept');
  const always = job({ pullPolicy: { timeoutSeconds: 15, backoffLimit: 1 }, imagePullPolicy: 'Always' });
  assert.equal(alignTag(written, always, s, zero)?.imagePullPolicy, 'Always');
  const defaulted = { tag: '1', pullPolicy: { ...tagPullPolicy(job({}), s, zero), timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' };
  assert.equal(alignTag(defaulted, job({}), s, zero), undefined, 'webhook defaults (600/3) equal an unset job pull policy');
});
