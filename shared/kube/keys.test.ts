import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { controllerOf, controllerRef, isControlledBy, objectKey, ownerRef, parseKey, withOwnerRef } from './keys.js';

describe('objectKey / parseKey', () => {
  const cases = [
    { name: 'a namespaced object is keyed ns/name', obj: { metadata: { namespace: 'default', name: 'web' } }, key: 'default/web', parsed: { namespace: 'default', name: 'web' } },
    { name: 'a cluster-scoped object is keyed by name alone', obj: { metadata: { name: 'node-1' } }, key: 'node-1', parsed: { name: 'node-1' } },
    { name: 'an empty namespace counts as cluster-scoped', obj: { metadata: { namespace: '', name: 'n' } }, key: 'n', parsed: { name: 'n' } },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      assert.equal(objectKey(tc.obj), tc.key);
      assert.deepEqual(parseKey(tc.key), tc.parsed);
    });
  }

  it('objectKey refuses an object without a name', () => {
    assert.throws(() => objectKey({ metadata: { namespace: 'x' } }), /no metadata.name/);
  });

  for (const bad of ['', 'a/b/c', 'ns/', '/']) {
    it(`parseKey rejects ${JSON.stringify(bad)}`, () => assert.throws(() => parseKey(bad), /unexpected key format/));
  }
});

describe('owner references', () => {
  const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'job', uid: 'u-1' } };

  it('controllerRef sets controller and blockOwnerDeletion', () => {
    assert.deepEqual(controllerRef(owner), {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', name: 'job', uid: 'u-1', controller: true, blockOwnerDeletion: true,
    });
  });

  it('controllerRef takes apiVersion/kind from the caller when the object lacks them', () => {
    const ref = controllerRef({ metadata: { name: 'n', uid: 'u' } }, { apiVersion: 'v1', kind: 'Node' });
    assert.deepEqual([ref.apiVersion, ref.kind], ['v1', 'Node']);
  });

  it('controllerRef refuses an owner without a uid', () => {
    assert.throws(() => controllerRef({ ...owner, metadata: { name: 'job' } }), /uid/);
  });

  it('ownerRef is a plain reference without controller flags', () => {
    assert.deepEqual(ownerRef(owner), { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', name: 'job', uid: 'u-1' });
  });

  const cases = [
    { name: 'no ownerReferences means no controller', refs: undefined, controller: undefined, controlled: false },
    { name: 'a non-controller reference is not the controller', refs: [ownerRef(owner)], controller: undefined, controlled: false },
    { name: 'the controller reference is found among others', refs: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u-0' }, controllerRef(owner)], controller: 'u-1', controlled: true },
    { name: 'a controller with another uid does not control it', refs: [{ ...controllerRef(owner), uid: 'u-2' }], controller: 'u-2', controlled: false },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const obj = { metadata: { ownerReferences: tc.refs } };
      assert.equal(controllerOf(obj)?.uid, tc.controller);
      assert.equal(isControlledBy(obj, owner), tc.controlled);
    });
  }

  it('withOwnerRef replaces a reference with the same uid and keeps the input untouched', () => {
    const refs = [ownerRef(owner), { apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u-0' }];
    const out = withOwnerRef(refs, controllerRef(owner));
    assert.deepEqual(out.map((r) => [r.uid, r.controller ?? false]), [['u-0', false], ['u-1', true]]);
    assert.equal(refs[0]!.controller, undefined);
  });
});
