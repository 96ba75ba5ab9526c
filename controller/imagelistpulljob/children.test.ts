import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImageListPullJob } from '../../shared/api/image-list-pull-job.js';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { isCurrent, newChild, ownedChildren, planChildren, TemplateHashLabel, templateHash, templateOf } from './children.js';

const list = (spec: Partial<NonNullable<ImageListPullJob['spec']>> = {}): ImageListPullJob => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob',
  metadata: { name: 'pre', namespace: 'ns', uid: 'list-uid' },
  spec: { images: ['a:1', 'b:1'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, ...spec },
});
const child = (name: string, image: string, o: { hash?: string; owner?: string; created?: string; spec?: object; deleting?: boolean } = {}): ImagePullJob => ({
  metadata: {
    name, namespace: 'ns', creationTimestamp: (o.created ?? '2025-01-01T00:00:00Z') as never,
    labels: o.hash ? { [TemplateHashLabel]: o.hash } : {},
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImageListPullJob', name: 'pre', uid: o.owner ?? 'list-uid', controller: true }],
    ...(o.deleting ? { deletionTimestamp: new Date() } : {}),
  },
  spec: { image, completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, ...o.spec },
});

describe('templateHash', () => {
  it('is stable, ignores images and key order, and changes with the template', () => {
    const h = templateHash(list());
    assert.match(h, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(templateHash(list({ images: ['c:1'] })), h);
    assert.equal(templateHash(list({ pullPolicy: { backoffLimit: 3, timeoutSeconds: 600 } })), h);
    assert.notEqual(templateHash(list({ pullPolicy: { timeoutSeconds: 60, backoffLimit: 3 } })), h);
  });
});

describe('newChild (spec §6 step 6)', () => {
  it('is generateName <list>-, the hash label, empty annotations, a v1beta1 controller reference, template + image', () => {
    const c = newChild(list({ selector: { names: ['n1'] } }), 'a:1', 'h1');
    assert.deepEqual(c.metadata, {
      generateName: 'pre-', namespace: 'ns', labels: { [TemplateHashLabel]: 'h1' }, annotations: {},
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', name: 'pre', uid: 'list-uid', controller: true, blockOwnerDeletion: true }],
    });
    assert.deepEqual(c.spec, { ...templateOf(list({ selector: { names: ['n1'] } })), image: 'a:1' });
    assert.equal(c.apiVersion, 'apps.kruise.io/v1beta1');
  });
});

describe('ownedChildren (spec §6 step 4)', () => {
  it('keeps children controlled by this list by UID (any apiVersion), not being deleted, of its namespace', () => {
    const mine = child('pre-1', 'a:1');
    const other = child('pre-2', 'a:1', { owner: 'other-uid' });
    const gone = child('pre-3', 'b:1', { deleting: true });
    assert.deepEqual(ownedChildren(list(), [mine, other, gone]).map((c) => c.metadata?.name), ['pre-1']);
  });
});

describe('isCurrent and planChildren (spec §6 step 6)', () => {
  const l = list();
  const h = templateHash(l);
  it('a child with the hash label is current', () => assert.ok(isCurrent(child('x', 'a:1', { hash: h, spec: { parallelism: 9 } }), templateOf(l), h)));
  it('a child with another hash but the same template (after the ImagePullJob defaults) is current: OpenKruise children are taken over', () => {
    assert.ok(isCurrent(child('x', 'a:1', { hash: 'gospewhash', spec: { imagePullPolicy: 'IfNotPresent' } }), templateOf(l), h));
  });
  it('a child with another hash and another template is outdated', () => {
    assert.ok(!isCurrent(child('x', 'a:1', { hash: 'old', spec: { pullPolicy: { timeoutSeconds: 60, backoffLimit: 3 } } }), templateOf(l), h));
  });
  it('creates the images without a current child, removes outdated children, children of removed images and duplicates', () => {
    const children = [
      child('pre-a', 'a:1', { hash: h }),
      child('pre-a2', 'a:1', { hash: h, created: '2025-01-02T00:00:00Z' }),
      child('pre-b', 'b:1', { hash: 'old', spec: { parallelism: 5 } }),
      child('pre-c', 'c:1', { hash: h }),
    ];
    const plan = planChildren(list({ images: ['b:1', 'a:1', 'd:1'] }), children, h);
    assert.deepEqual([...plan.kept.keys()], ['a:1']);
    assert.equal(plan.kept.get('a:1')?.metadata?.name, 'pre-a');
    assert.deepEqual(plan.create, ['b:1', 'd:1']);
    assert.deepEqual(plan.remove.map((c) => c.metadata?.name).sort(), ['pre-a2', 'pre-b', 'pre-c']);
  });
});
