// PUB validation against spec/availability-guards.md §2 (messages) and §6 V5 (upstream's pub_validating_test.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodUnavailableBudget } from '../../api/pod-unavailable-budget.js';
import { formatViolation } from '../../errors.js';
import { isSelectorLooseOverlap } from './selector-overlap.js';
import { validatePub } from './validate.js';

const pub = (spec: PodUnavailableBudget['spec'], annotations?: Record<string, string>, name = 'pub-test'): PodUnavailableBudget =>
  ({ metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) }, spec });
const texts = (p: PodUnavailableBudget, old?: PodUnavailableBudget, others: readonly PodUnavailableBudget[] | Error = []) => validatePub(p, old, others).map(formatViolation);
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'deployment-test' };

describe('validatePub (V5)', () => {
  const cases: { name: string; pub: PodUnavailableBudget; want: string[]; others?: PodUnavailableBudget[]; old?: PodUnavailableBudget }[] = [
    { name: 'targetRef and maxUnavailable are valid', pub: pub({ targetRef: ref, maxUnavailable: '30%' }), want: [] },
    { name: 'selector and minAvailable are valid', pub: pub({ selector: { matchLabels: { app: 'x' } }, minAvailable: 5 }), want: [] },
    { name: 'neither selector nor targetRef', pub: pub({ maxUnavailable: 1 }), want: ['spec.selector, targetRef: Required value: no selector or targetRef defined in PodUnavailableBudget'] },
    { name: 'both selector and targetRef', pub: pub({ targetRef: ref, selector: { matchLabels: { a: 'b' } }, maxUnavailable: 1 }), want: ['spec.selector, targetRef: Required value: selector and targetRef are mutually exclusive'] },
    { name: 'neither max nor min', pub: pub({ targetRef: ref }), want: ['spec.maxUnavailable, minAvailable: Required value: no maxUnavailable or minAvailable defined in PodUnavailableBudget'] },
    { name: 'both max and min', pub: pub({ targetRef: ref, maxUnavailable: 1, minAvailable: 1 }), want: ['spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are mutually exclusive'] },
    { name: 'unknown protected operation', pub: pub({ targetRef: ref, maxUnavailable: 1 }, { 'kruise.io/pub-protect-operations': 'xxxxx' }), want: ['metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid'] },
    { name: 'identical errors collapse only in the route; here one per bad item', pub: pub({ targetRef: ref, maxUnavailable: 1 }, { 'kruise.io/pub-protect-operations': 'a,b' }), want: ['metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid', 'metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid'] },
    { name: 'every operation including RESIZE is valid', pub: pub({ targetRef: ref, maxUnavailable: 1 }, { 'kruise.io/pub-protect-operations': 'EVICT,DELETE,UPDATE,RESIZE' }), want: [] },
    { name: 'total replicas must be an int32', pub: pub({ targetRef: ref, maxUnavailable: 1 }, { 'pub.kruise.io/protect-total-replicas': '%%' }), want: ['metadata: Internal error: annotation[pub.kruise.io/protect-total-replicas] is invalid'] },
    { name: 'total replicas 1000 and -5 pass', pub: pub({ targetRef: ref, maxUnavailable: 1 }, { 'pub.kruise.io/protect-total-replicas': '-5' }), want: [] },
    { name: 'empty targetRef field', pub: pub({ targetRef: { apiVersion: '', kind: 'Deployment', name: 'web' }, maxUnavailable: 1 }), want: ['spec.TargetReference: Invalid value: v1alpha1.TargetReference{APIVersion:"", Kind:"Deployment", Name:"web"}: empty TargetReference is not valid for PodUnavailableBudget.'] },
    { name: 'apiVersion with two slashes', pub: pub({ targetRef: { apiVersion: 'a/b/c', kind: 'K', name: 'n' }, maxUnavailable: 1 }), want: ['spec.TargetReference: Invalid value: v1alpha1.TargetReference{APIVersion:"a/b/c", Kind:"K", Name:"n"}: unexpected GroupVersion string: a/b/c'] },
    { name: 'empty selector', pub: pub({ selector: { matchLabels: {} }, maxUnavailable: 1 }), want: ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is not valid for PodUnavailableBudget.'] },
    { name: 'negative int', pub: pub({ targetRef: ref, maxUnavailable: -1 }), want: ['spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0'] },
    { name: 'not a percent', pub: pub({ targetRef: ref, maxUnavailable: 'abc' }), want: ["spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"abc\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"] },
    { name: 'percent over 100', pub: pub({ targetRef: ref, minAvailable: '120%' }), want: ['spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%'] },
    { name: 'same targetRef as another PUB', pub: pub({ targetRef: ref, maxUnavailable: 1 }), others: [pub({ targetRef: { ...ref, apiVersion: 'apps/v1beta1' }, maxUnavailable: 1 }, undefined, 'other')],
      want: ['spec.targetReference: Invalid value: v1alpha1.TargetReference{APIVersion:"apps/v1", Kind:"Deployment", Name:"deployment-test"}: pub.spec.targetReference is in conflict with other PodUnavailableBudget other'] },
    { name: 'same selector as another PUB', pub: pub({ selector: { matchLabels: { app: 'pub-controller' } }, maxUnavailable: 1 }), others: [pub({ selector: { matchLabels: { app: 'pub-controller' } }, maxUnavailable: 1 }, undefined, 'other')],
      want: ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"pub-controller"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: pub.spec.selector is in conflict with other PodUnavailableBudget other'] },
    { name: 'a PUB of another namespace never conflicts', pub: pub({ selector: { matchLabels: { app: 'x' } }, maxUnavailable: 1 }),
      others: [{ ...pub({ selector: { matchLabels: { app: 'x' } }, maxUnavailable: 1 }, undefined, 'other'), metadata: { name: 'other', namespace: 'elsewhere' } }], want: [] },
    { name: 'UPDATE changing the targetRef', pub: pub({ targetRef: ref, maxUnavailable: 1 }), old: pub({ targetRef: { ...ref, name: 'was' }, maxUnavailable: 1 }),
      want: ['spec.selector, targetRef: Required value: selector and targetRef cannot be modified'] },
    { name: 'UPDATE changing the selector', pub: pub({ selector: { matchLabels: { a: 'b' } }, maxUnavailable: 1 }), old: pub({ selector: { matchLabels: { a: 'c' } }, maxUnavailable: 1 }),
      want: ['spec.selector, targetRef: Required value: selector and targetRef cannot be modified'] },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(texts(tc.pub, tc.old, tc.others ?? []), tc.want));

  it('a failed list of the namespace PUBs is an internal error', () => {
    assert.deepEqual(texts(pub({ targetRef: ref, maxUnavailable: 1 }), undefined, new Error('boom')), [': Internal error: query other podUnavailableBudget failed, err: boom']);
  });
});

describe('isSelectorLooseOverlap', () => {
  const cases: [string, Parameters<typeof isSelectorLooseOverlap>[0], Parameters<typeof isSelectorLooseOverlap>[1], boolean][] = [
    ['same labels', { matchLabels: { app: 'a' } }, { matchLabels: { app: 'a' } }, true],
    ['a subset of keys does not conflict', { matchLabels: { app: 'a' } }, { matchLabels: { app: 'a', tier: 'x' } }, false],
    ['In shares a value', { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] }, { matchLabels: { app: 'b' } }, true],
    ['In against Exists', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, { matchLabels: { app: 'b' } }, true],
    ['In wholly excluded by NotIn', { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['a'] }] }, { matchLabels: { app: 'a' } }, false],
    ['DoesNotExist against In', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, { matchLabels: { app: 'a' } }, false],
  ];
  for (const [name, a, b, want] of cases) it(name, () => { assert.equal(isSelectorLooseOverlap(a, b), want); assert.equal(isSelectorLooseOverlap(b, a), want); });
});
