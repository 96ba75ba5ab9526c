import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { ImageTagSpec, NodeImage } from '../../shared/api/node-image.js';
import { withJobTag, withoutJobTags, type JobTag } from './tag-edit.js';

const NOW = '2025-01-01T12:00:00Z';
const ref = (name: string) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'ns', name, uid: `u-${name}` });
const secret = { namespace: 'kruise-daemon-config', name: 'reg-abcde' };
const job: ImagePullJob = { metadata: { name: 'j', namespace: 'ns', uid: 'u-j' },
  spec: { image: 'nginx:1.25', completionPolicy: { type: 'Always' }, imagePullPolicy: 'IfNotPresent', sandboxConfig: { labels: { a: 'b' } } } };
const jt = (o: Partial<JobTag> = {}): JobTag => ({
  image: { name: 'nginx', tag: '1.25' }, owner: ref('j'), pullPolicy: { ttlSecondsAfterFinished: 2400, timeoutSeconds: 600, backoffLimit: 3 },
  secrets: [secret], job, now: NOW, align: () => undefined, ...o,
});
const ni = (tags: ImageTagSpec[] | undefined, o: Partial<NodeImage> = {}): NodeImage => ({
  metadata: { name: 'n1' }, spec: tags ? { images: { nginx: { tags, pullSecrets: [secret] } } } : {}, ...o,
});

test('a new tag: version 0, the job as owner, derived policy, secrets, sandbox config', () => {
  assert.deepEqual(withJobTag(ni(undefined), jt()), { images: { nginx: {
    tags: [{ tag: '1.25', version: 0, pullPolicy: { ttlSecondsAfterFinished: 2400, timeoutSeconds: 600, backoffLimit: 3 }, ownerReferences: [ref('j')], createdAt: NOW, imagePullPolicy: 'IfNotPresent' }],
    sandboxConfig: { labels: { a: 'b' } }, pullSecrets: [secret],
  } } });
});

test('a new tag continues after the version the status last saw', () => {
  const n = ni(undefined, { status: { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0, imageStatuses: { nginx: { tags: [{ tag: '1.25', phase: 'Succeeded', version: 4 }] } } } });
  assert.equal(withJobTag(n, jt())?.images?.nginx?.tags[0]?.version, 5);
});

test("joining another job's tag bumps the version and keeps its pull policy", () => {
  const theirs: ImageTagSpec = { tag: '1.25', version: 2, pullPolicy: { ttlSecondsAfterFinished: 99 }, ownerReferences: [ref('k')], createdAt: '2020-01-01T00:00:00Z', imagePullPolicy: 'Always' };
  const tag = withJobTag(ni([theirs, { tag: '1.24' }]), jt())?.images?.nginx?.tags;
  assert.deepEqual(tag?.map((t) => t.tag), ['1.24', '1.25'], 'sorted');
  assert.deepEqual(tag?.[1], { ...theirs, version: 3, ownerReferences: [ref('k'), ref('j')], createdAt: NOW, imagePullPolicy: 'IfNotPresent' });
});

test('an owned tag: no change, missing secrets added, or aligned when this job is the first owner', () => {
  const owned: ImageTagSpec = { tag: '1.25', version: 0, pullPolicy: { ttlSecondsAfterFinished: 1 }, ownerReferences: [ref('j')], createdAt: NOW };
  assert.equal(withJobTag(ni([owned]), jt()), undefined);
  const noSecret: NodeImage = { metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [owned] } } } };
  assert.deepEqual(withJobTag(noSecret, jt())?.images?.nginx?.pullSecrets, [secret]);
  const aligned = withJobTag(ni([owned]), jt({ align: () => ({ pullPolicy: { ttlSecondsAfterFinished: 7, timeoutSeconds: 10 }, imagePullPolicy: 'Always' }) }));
  assert.deepEqual(aligned?.images?.nginx?.tags[0], { ...owned, pullPolicy: { ttlSecondsAfterFinished: 7, timeoutSeconds: 10 }, imagePullPolicy: 'Always' });
  const second: ImageTagSpec = { ...owned, ownerReferences: [ref('k'), ref('j')] };
  assert.equal(withJobTag(ni([second]), jt({ align: () => ({ pullPolicy: {}, imagePullPolicy: undefined }) })), undefined, 'a later owner does not rewrite the policy');
});

test('withdrawing: only this job, only outside `keep`, empty tags and images removed', () => {
  const shared: ImageTagSpec = { tag: '1.25', ownerReferences: [ref('k'), ref('j')] };
  const alone: ImageTagSpec = { tag: '1.24', ownerReferences: [ref('j')] };
  const n: NodeImage = { metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [alone, shared] }, busybox: { tags: [{ tag: '1', ownerReferences: [ref('j')] }] } } } };
  assert.deepEqual(withoutJobTags(n, 'u-j'), { images: { nginx: { tags: [{ tag: '1.25', ownerReferences: [ref('k')] }] } } });
  assert.deepEqual(withoutJobTags(n, 'u-j', { name: 'nginx', tag: '1.25' }), { images: { nginx: { tags: [shared] } } }, 'an image edit withdraws the old tags only');
  assert.equal(withoutJobTags(n, 'u-x'), undefined);
  assert.deepEqual(withoutJobTags({ metadata: { name: 'n1' }, spec: { images: { busybox: { tags: [{ tag: '1', ownerReferences: [ref('j')] }] } } } }, 'u-j'), {});
});
