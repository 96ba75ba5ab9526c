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

describe('CloneSet validation (spec §4, §6 V9; v1.8.4 wording)', () => {
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
  it('partition -1; "5" is 5% on v1.8.4', () => {
    assert.equal(msg(web((c) => { c.spec!.updateStrategy!.partition = -1; })), 'spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0');
    ok(web((c) => { c.spec!.updateStrategy!.partition = '5'; }));
  });
  it('maxUnavailable 0 with maxSurge 0', () => assert.equal(msg(web((c) => { c.spec!.updateStrategy!.maxUnavailable = 0; })),
    'spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1'));
  it('maxUnavailable "abc": the parse error and the both-less-than-1 error', () => assert.equal(msg(web((c) => { c.spec!.updateStrategy!.maxUnavailable = 'abc'; })),
    '[spec.updateStrategy.maxUnavailable: Invalid value: "abc": failed getValueFromIntOrPercent for maxUnavailable: invalid value for IntOrString: invalid value "abc": strconv.Atoi: parsing "abc": invalid syntax, spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"abc"}: maxUnavailable and maxSurge should not both be less than 1]'));
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
    "spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden"));
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
});
