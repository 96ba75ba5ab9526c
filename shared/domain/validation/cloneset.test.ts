import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloneSet } from '../../api/cloneset.js';
import type { Pod } from '../../api/meta.js';
import { formatViolations } from '../../errors.js';
import { defaultCloneSet } from '../cloneset/defaults.js';
import { validateCloneSet } from './cloneset.js';

const pods: Record<string, Pod> = {
  'web-owned': { metadata: { name: 'web-owned', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'cs-uid', controller: true }] } },
  'web-other': { metadata: { name: 'web-other', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'x', uid: 'x', controller: true }] } },
  'web-dying': { metadata: { name: 'web-dying', deletionTimestamp: new Date() } },
};
const ctx = { getPod: (_ns: string, n: string) => pods[n] };

function web(edit: (cs: CloneSet) => void = () => {}): CloneSet {
  const cs = defaultCloneSet({ metadata: { name: 'web', namespace: 'default', uid: 'cs-uid' }, spec: {
    replicas: 3, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
  edit(cs);
  return cs;
}
const msg = (cs: CloneSet, old?: CloneSet) => formatViolations(validateCloneSet(cs, old, ctx));
const ok = (cs: CloneSet, old?: CloneSet) => assert.deepEqual(validateCloneSet(cs, old, ctx), []);

describe('CloneSet validation (spec §4, §6 V9; v1.9.0 wording)', () => {
  it('a defaulted CloneSet is valid', () => ok(web()));
  it('no spec, or a null one, is a list of field errors, not a crash', () => {
    for (const spec of [undefined, null]) assert.match(msg({ metadata: { name: 'x', namespace: 'default' }, spec: spec as never }), /spec\.selector: Required value/);
  });
  it('replicas -1', () => assert.equal(msg(web((c) => { c.spec!.replicas = -1; })), 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'));
  it('empty selector', () => assert.equal(msg(web((c) => { c.spec!.selector = {}; })),
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for cloneset'));
  it('template labels not matched', () => assert.equal(msg(web((c) => { c.spec!.template.metadata!.labels = { app: 'other', tier: 'x' }; })),
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"other", "tier":"x"}: `selector` does not match template `labels`'));
  it('restartPolicy Never', () => assert.equal(msg(web((c) => { c.spec!.template.spec!.restartPolicy = 'Never'; })),
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'));
  it('replicas -1 with restartPolicy Never: both, in order', () => assert.equal(msg(web((c) => { c.spec!.replicas = -1; c.spec!.template.spec!.restartPolicy = 'Never'; })),
    '[spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]'));
  it('type OnDelete', () => assert.equal(msg(web((c) => { c.spec!.updateStrategy!.type = 'OnDelete'; })),
    'spec.updateStrategy.type: Invalid value: "OnDelete": must be \'ReCreate\', InPlaceIfPossible or \'InPlaceOnly\''));
  it('partition -1; "5" is not a percentage on v1.9.0', () => {
    assert.equal(msg(web((c) => { c.spec!.updateStrategy!.partition = -1; })), 'spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0');
    assert.equal(msg(web((c) => { c.spec!.updateStrategy!.partition = '5'; })),
      'spec.updateStrategy.partition: Invalid value: "5": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage');
  });
  it('maxUnavailable 0 with maxSurge 0', () => assert.equal(msg(web((c) => { c.spec!.updateStrategy!.maxUnavailable = 0; })),
    'spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1'));
  it('maxUnavailable "abc": the parse error and the both-less-than-1 error', () => assert.equal(msg(web((c) => { c.spec!.updateStrategy!.maxUnavailable = 'abc'; })),
    '[spec.updateStrategy.maxUnavailable: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage, spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"abc"}: maxUnavailable and maxSurge should not both be less than 1]'));
  it('podsToDelete duplicates, missing, terminating, not owned', () => {
    assert.equal(msg(web((c) => { c.spec!.scaleStrategy = { podsToDelete: ['a', 'a'] }; })), 'spec.scaleStrategy.podsToDelete: Invalid value: []string{"a", "a"}: duplicated items [a]');
    assert.equal(msg(web((c) => { c.spec!.scaleStrategy = { podsToDelete: ['web-abcde'] }; })), 'spec.scaleStrategy.podsToDelete: Invalid value: "web-abcde": find pod web-abcde failed: pods "web-abcde" not found');
    assert.equal(msg(web((c) => { c.spec!.scaleStrategy = { podsToDelete: ['web-dying'] }; })), 'spec.scaleStrategy.podsToDelete: Invalid value: "web-dying": find pod web-dying already terminating');
    assert.equal(msg(web((c) => { c.spec!.scaleStrategy = { podsToDelete: ['web-other'] }; })), 'spec.scaleStrategy.podsToDelete: Invalid value: "web-other": find pod web-other owner is not this CloneSet');
    ok(web((c) => { c.spec!.scaleStrategy = { podsToDelete: ['web-owned'] }; }));
    // A name already listed is not looked up again.
    const old = web((c) => { c.spec!.scaleStrategy = { podsToDelete: ['gone'] }; });
    ok(web((c) => { c.spec!.scaleStrategy = { podsToDelete: ['gone'] }; }), old);
  });
  it('InPlaceOnly: only image changes, no maxSurge', () => {
    const inPlaceOnly = (c: CloneSet) => { c.spec!.updateStrategy!.type = 'InPlaceOnly'; };
    const old = web(inPlaceOnly);
    ok(web((c) => { inPlaceOnly(c); c.spec!.template.spec!.containers[0]!.image = 'nginx:2'; }), old);
    assert.equal(msg(web((c) => { inPlaceOnly(c); c.spec!.template.spec!.containers[0]!.env = [{ name: 'A', value: '1' }]; }), old),
      'spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env');
    assert.equal(msg(web((c) => { inPlaceOnly(c); c.spec!.updateStrategy!.maxSurge = 1; })), 'spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly');
  });
  it('only the listed spec fields may change', () => assert.equal(msg(web((c) => { c.spec!.selector = { matchLabels: { app: 'web', x: 'y' } }; c.spec!.template.metadata!.labels!.x = 'y'; }), web()),
    "spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden"));
  it('progressDeadlineSeconds may change on update (v1.9.0 whitelist)', () => {
    ok(web((c) => { c.spec!.progressDeadlineSeconds = 600; }), web());
  });
  it('lifecycle hooks and volumeClaimTemplates are accepted', () => {
    ok(web((c) => { c.spec!.lifecycle = { preDelete: { finalizersHandler: ['x/y'], markPodNotReady: true }, inPlaceUpdate: { labelsHandler: { hold: 'true' } } }; }));
    ok(web((c) => { c.spec!.volumeClaimTemplates = [{ metadata: { name: 'd' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }]; }));
  });
  it('a volumeClaimTemplate named like a template volume is a duplicate volume, as upstream mocks them into the pod', () => {
    const v = validateCloneSet(web((c) => {
      c.spec!.template.spec!.volumes = [{ name: 'd', emptyDir: {} }];
      c.spec!.volumeClaimTemplates = [{ metadata: { name: 'd' } }];
    }), undefined, ctx);
    assert.ok(v.some((x) => x.field === 'spec.template.spec.volumes[1].name' && x.type === 'Duplicate value'), JSON.stringify(v));
  });
  it('podsToDelete: a pod with no controller is not this CloneSet\'s, also on CREATE (no uid yet)', () => {
    const orphan: Pod = { metadata: { name: 'orphan', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', controller: false }] } };
    const bare: Pod = { metadata: { name: 'bare' } };
    const c2 = { getPod: (_ns: string, n: string) => ({ orphan, bare } as Record<string, Pod>)[n] };
    const create = web((c) => { delete c.metadata!.uid; c.spec!.scaleStrategy = { podsToDelete: ['orphan', 'bare'] }; });
    // Sorted (a sets.String), each once.
    assert.equal(formatViolations(validateCloneSet(create, undefined, c2)),
      '[spec.scaleStrategy.podsToDelete: Invalid value: "bare": find pod bare owner is not this CloneSet, spec.scaleStrategy.podsToDelete: Invalid value: "orphan": find pod orphan owner is not this CloneSet]');
  });
});

// pkg/webhook/cloneset/validating/validation.go v1.9.0 with util.GetScaledValueFromIntOrPercent and the new
// progressDeadlineSeconds rule; messages as Go prints them.
describe('CloneSet v1.9.0: percentages, progressDeadlineSeconds', () => {
  const cases: { name: string; edit: (c: CloneSet) => void; want: string | null }[] = [
    { name: 'fractional maxUnavailable "12.5%" of 3 rounds up to 1', edit: (c) => { c.spec!.updateStrategy!.maxUnavailable = '12.5%'; }, want: null },
    { name: 'maxUnavailable "0.1%" of 3 is 1 (ceil)', edit: (c) => { c.spec!.updateStrategy!.maxUnavailable = '0.1%'; }, want: null },
    { name: 'maxUnavailable "1e1%" (a Go float) is valid', edit: (c) => { c.spec!.updateStrategy!.maxUnavailable = '1e1%'; }, want: null },
    { name: 'maxUnavailable "5" is not a percentage', edit: (c) => { c.spec!.updateStrategy!.maxUnavailable = '5'; },
      want: '[spec.updateStrategy.maxUnavailable: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxUnavailable: invalid type: string is not a percentage, spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5"}: maxUnavailable and maxSurge should not both be less than 1]' },
    { name: 'maxUnavailable "x%" is a ParseFloat error', edit: (c) => { c.spec!.updateStrategy!.maxUnavailable = 'x%'; },
      want: '[spec.updateStrategy.maxUnavailable: Invalid value: "x%": failed GetScaledValueFromIntOrPercent for maxUnavailable: strconv.ParseFloat: parsing "x": invalid syntax, spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x%"}: maxUnavailable and maxSurge should not both be less than 1]' },
    { name: 'maxUnavailable "1e400%" is out of range', edit: (c) => { c.spec!.updateStrategy!.maxUnavailable = '1e400%'; c.spec!.updateStrategy!.maxSurge = 1; },
      want: 'spec.updateStrategy.maxUnavailable: Invalid value: "1e400%": failed GetScaledValueFromIntOrPercent for maxUnavailable: strconv.ParseFloat: parsing "1e400": value out of range' },
    { name: 'maxUnavailable "50%%" keeps one %', edit: (c) => { c.spec!.updateStrategy!.maxUnavailable = '50%%'; c.spec!.updateStrategy!.maxSurge = 1; },
      want: 'spec.updateStrategy.maxUnavailable: Invalid value: "50%%": failed GetScaledValueFromIntOrPercent for maxUnavailable: strconv.ParseFloat: parsing "50%": invalid syntax' },
    { name: 'maxUnavailable unset with maxSurge 0 prints null', edit: (c) => { delete c.spec!.updateStrategy!.maxUnavailable; c.spec!.updateStrategy!.maxSurge = 0; },
      want: 'spec.updateStrategy.maxUnavailable: Invalid value: null: maxUnavailable and maxSurge should not both be less than 1' },
    { name: 'maxSurge "2.5%" with InPlaceOnly is 1 pod', edit: (c) => { c.spec!.updateStrategy!.type = 'InPlaceOnly'; c.spec!.updateStrategy!.maxSurge = '2.5%'; },
      want: 'spec.updateStrategy.maxSurge: Invalid value: "2.5%": can not use maxSurge with strategy type InPlaceOnly' },
    { name: 'partition "33.4%" is valid', edit: (c) => { c.spec!.updateStrategy!.partition = '33.4%'; }, want: null },
    { name: 'partition "-10%" of 3 rounds up to 0, so it passes', edit: (c) => { c.spec!.updateStrategy!.partition = '-10%'; }, want: null },
    { name: 'partition "-50%" of 3 is -1', edit: (c) => { c.spec!.updateStrategy!.partition = '-50%'; },
      want: 'spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0' },
    { name: 'partition "inf%" is math.MinInt64 after Go\'s conversion', edit: (c) => { c.spec!.updateStrategy!.partition = 'inf%'; },
      want: 'spec.updateStrategy.partition: Invalid value: -9223372036854775808: must be greater than or equal to 0' },
    { name: 'partition unset is a nil IntOrString', edit: (c) => { delete c.spec!.updateStrategy!.partition; },
      want: 'spec.updateStrategy.partition: Invalid value: "<nil>": failed GetScaledValueFromIntOrPercent for partition: nil value for IntOrString' },
    { name: 'progressDeadlineSeconds 5 = minReadySeconds 5', edit: (c) => { c.spec!.minReadySeconds = 5; c.spec!.progressDeadlineSeconds = 5; },
      want: 'spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds' },
    { name: 'progressDeadlineSeconds -1: both rules', edit: (c) => { c.spec!.progressDeadlineSeconds = -1; },
      want: '[spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds]' },
    { name: 'progressDeadlineSeconds 0 with minReadySeconds 0', edit: (c) => { c.spec!.progressDeadlineSeconds = 0; },
      want: 'spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds' },
    { name: 'progressDeadlineSeconds MaxInt32 with minReadySeconds MaxInt32', edit: (c) => { c.spec!.minReadySeconds = 2147483647; c.spec!.progressDeadlineSeconds = 2147483647; }, want: null },
    { name: 'progressDeadlineSeconds 600 > minReadySeconds 10', edit: (c) => { c.spec!.minReadySeconds = 10; c.spec!.progressDeadlineSeconds = 600; }, want: null },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const cs = web(tc.edit);
      if (tc.want === null) ok(cs);
      else assert.equal(msg(cs), tc.want);
    });
  }
});
