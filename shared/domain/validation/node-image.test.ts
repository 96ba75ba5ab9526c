import assert from 'node:assert/strict';
import { formatViolations } from '../../errors.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import type { ImageSpec, NodeImage } from '../../api/node-image.js';
import { defaultNodeImage, validateNodeImage } from './node-image.js';

const now = new Date('2026-01-02T03:04:05.678Z');
const ni = (images: Record<string, ImageSpec>): NodeImage => ({ metadata: { name: 'node1' }, spec: { images } });

describe('defaultNodeImage', () => {
  it('fills createdAt from the clock, pull-policy defaults, and sorts tags', () => {
    const out = defaultNodeImage(ni({ nginx: { tags: [{ tag: 'b', pullPolicy: { ttlSecondsAfterFinished: 1 } }, { tag: 'a', createdAt: '2025-01-01T00:00:00Z' }] } }), now);
    assert.deepEqual(out.spec?.images?.nginx?.tags, [
      { tag: 'a', createdAt: '2025-01-01T00:00:00Z', pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } },
      { tag: 'b', createdAt: '2026-01-02T03:04:05Z', pullPolicy: { ttlSecondsAfterFinished: 1, timeoutSeconds: 600, backoffLimit: 3 } },
    ]);
  });
  it('sorts status tags too', () => {
    const obj: NodeImage = { ...ni({}), status: { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0, imageStatuses: { x: { tags: [{ tag: 'z', phase: 'Waiting' }, { tag: 'm', phase: 'Pulling' }] } } } };
    assert.deepEqual(defaultNodeImage(obj, now).status?.imageStatuses?.x?.tags.map((t) => t.tag), ['m', 'z']);
  });
});

describe('validateNodeImage', () => {
  const ok = { tag: 't', createdAt: '2026-01-01T00:00:00Z', pullPolicy: { ttlSecondsAfterFinished: 300 } };
  const cases: { name: string; obj: NodeImage; err?: string }[] = [
    { name: 'an empty spec is valid', obj: { metadata: { name: 'n' }, spec: {} } },
    { name: 'a complete tag is valid', obj: ni({ nginx: { tags: [ok] } }) },
    { name: '256 images are accepted', obj: ni(Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`img${i}`, { tags: [ok] }]))) },
    { name: '257 images are too many', obj: ni(Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`img${i}`, { tags: [ok] }]))), err: 'spec images length 257 can not be more than 256' },
    { name: 'an empty image name is refused', obj: ni({ '': { tags: [ok] } }), err: 'image name can not be empty' },
    { name: 'an empty tag is refused', obj: ni({ nginx: { tags: [{ ...ok, tag: '' }] } }), err: 'tag for image nginx can not be empty' },
    { name: 'a duplicated tag is refused', obj: ni({ nginx: { tags: [ok, ok] } }), err: 'duplicated tag t for image nginx' },
    { name: 'a missing createdAt is refused', obj: ni({ nginx: { tags: [{ ...ok, createdAt: undefined }] } }), err: 'createAt field for nginx/t can not be empty' },
    { name: 'a negative version is refused', obj: ni({ nginx: { tags: [{ ...ok, version: -1 }] } }), err: 'version for nginx/t can not be less than 0' },
    { name: 'a missing pullPolicy is refused', obj: ni({ nginx: { tags: [{ ...ok, pullPolicy: undefined }] } }), err: 'pullPolicy field for nginx/t must set' },
    { name: 'a missing ttlSecondsAfterFinished is refused', obj: ni({ nginx: { tags: [{ ...ok, pullPolicy: { timeoutSeconds: 600 } }] } }), err: 'pullPolicy.ttlSecondsAfterFinished for nginx/t must set' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateNodeImage(c.obj);
      if (c.err) assert.deepEqual(errs.map((e) => e.detail), [c.err]);
      else assert.deepEqual(errs, []);
    });
  }
});

describe('validateNodeImage messages', () => {
  it('a negative version shows the version as the invalid value', () => {
    const errs = validateNodeImage(ni({ nginx: { tags: [{ tag: 't', createdAt: '2026-01-01T00:00:00Z', version: -1, pullPolicy: { ttlSecondsAfterFinished: 300 } }] } }));
    assert.equal(formatViolations(errs), 'spec.images[nginx].tags[0].version: Invalid value: -1: version for nginx/t can not be less than 0');
  });
});

describe('the NodeImage example', () => {
  it('09-nodeimage-pull.yaml validates after defaulting', () => {
    const doc = yaml.load(readFileSync(new URL('../../../e2e/cluster/examples/09-nodeimage-pull.yaml', import.meta.url), 'utf8')) as NodeImage;
    const out = defaultNodeImage({ metadata: { name: 'node1' }, ...doc }, now);
    assert.deepEqual(validateNodeImage(out), []);
    assert.equal(out.spec?.images?.ubuntu?.tags[0]?.createdAt, '2026-01-02T03:04:05Z');
  });
});
