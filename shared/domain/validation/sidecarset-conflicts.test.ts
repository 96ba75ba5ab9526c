import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LabelSelector } from '../../api/meta.js';
import type { SidecarSet, SidecarSetSpec } from '../../api/sidecarset.js';
import { isNamespaceOverlapping, isSelectorOverlapping, validateSidecarSetConflicts } from './sidecarset-conflicts.js';

const set = (name: string, spec: SidecarSetSpec): SidecarSet => ({ metadata: { name }, spec });
const noNamespaces = (): undefined => undefined;

describe('TestSidecarSetNameConflict', () => {
  const cases = [
    {
      name: 'same selector: the init container and the container both conflict, an identical volume does not',
      obj: set('sidecarset2', {
        selector: { matchLabels: { a: 'b' } },
        containers: [{ name: 'container-name' }],
        initContainers: [{ name: 'init-name' }],
        volumes: [{ name: 'volume-name' }],
      }),
      others: [
        set('sidecarset1', {
          selector: { matchLabels: { a: 'b' } },
          containers: [{ name: 'container-name' }],
          initContainers: [{ name: 'init-name' }],
          volumes: [{ name: 'volume-name' }],
        }),
      ],
      expect: 2,
    },
    {
      name: 'same namespaceSelector: the container conflicts',
      obj: set('sidecarset2', { selector: { matchLabels: { a: 'b' } }, namespaceSelector: { matchLabels: { app: 'nginx' } }, containers: [{ name: 'container-name' }] }),
      others: [set('sidecarset1', { selector: { matchLabels: { a: 'b' } }, namespaceSelector: { matchLabels: { app: 'nginx' } }, containers: [{ name: 'container-name' }] })],
      expect: 1,
    },
    {
      name: 'disjoint namespaceSelectors: no conflict',
      obj: set('sidecarset2', { selector: { matchLabels: { a: 'b' } }, namespaceSelector: { matchLabels: { app: 'nginx' } }, containers: [{ name: 'container-name' }] }),
      others: [set('sidecarset1', { selector: { matchLabels: { a: 'b' } }, namespaceSelector: { matchLabels: { app: 'redis' } }, containers: [{ name: 'container-name' }] })],
      expect: 0,
    },
    {
      name: 'an init container named like another set\'s regular container is not cross-checked',
      obj: set('sidecarset2', { selector: { matchLabels: { a: 'b' } }, initContainers: [{ name: 'shared' }] }),
      others: [set('sidecarset1', { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'shared' }] })],
      expect: 0,
    },
    {
      name: 'the object itself in the stored list is skipped by name',
      obj: set('sidecarset1', { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'c' }] }),
      others: [set('sidecarset1', { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'c' }] })],
      expect: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(validateSidecarSetConflicts(c.obj, c.others, noNamespaces).length, c.expect));
  }

  it('names the other SidecarSet in the message', () => {
    const errs = validateSidecarSetConflicts(
      set('b', { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'c' }] }),
      [set('a', { selector: { matchLabels: { a: 'b' } }, containers: [{ name: 'c' }] })],
      noNamespaces,
    );
    assert.deepEqual(errs, [{ field: 'spec.containers', type: 'Invalid value', value: 'c', detail: 'container c already exist in a' }]);
  });
});

describe('TestSelectorConflict (upstream util.IsSelectorOverlapping cases)', () => {
  const ml = (m: Record<string, string>): LabelSelector => ({ matchLabels: m });
  const cases: { name: string; a: LabelSelector; b: LabelSelector; overlap: boolean }[] = [
    { name: '{a:h} and {a:h} overlap', a: ml({ a: 'h' }), b: ml({ a: 'h' }), overlap: true },
    { name: '{a:h} and {a:i} do not overlap', a: ml({ a: 'h' }), b: ml({ a: 'i' }), overlap: false },
    { name: '{a:h} and {b:i} overlap (different keys)', a: ml({ a: 'h' }), b: ml({ b: 'i' }), overlap: true },
    { name: 'three labels with one differing value do not overlap', a: ml({ a: 'h', b: 'i', c: 'j' }), b: ml({ a: 'h', b: 'x', c: 'j' }), overlap: false },
    { name: '{a:h} and a In [h,i,j] overlap', a: ml({ a: 'h' }), b: { matchExpressions: [{ key: 'a', operator: 'In', values: ['h', 'i', 'j'] }] }, overlap: true },
    { name: '{a:h} and a In [i,j] do not overlap', a: ml({ a: 'h' }), b: { matchExpressions: [{ key: 'a', operator: 'In', values: ['i', 'j'] }] }, overlap: false },
    { name: 'a NotIn [h,i] and {a:h} do not overlap', a: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['h', 'i'] }] }, b: ml({ a: 'h' }), overlap: false },
    { name: '{a:h} and a Exists overlap', a: ml({ a: 'h' }), b: { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, overlap: true },
    { name: 'a DoesNotExist and {a:h} do not overlap', a: { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, b: ml({ a: 'h' }), overlap: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isSelectorOverlapping(c.a, c.b), c.overlap));
});

describe('namespace overlap rules (spec/webhooks.md §3.1)', () => {
  const labels: Record<string, Record<string, string>> = { web: { team: 'web' } };
  const lookup = (n: string): Record<string, string> | undefined => labels[n];
  const cases: { name: string; origin: SidecarSetSpec; other: SidecarSetSpec; overlap: boolean }[] = [
    { name: 'rule 1: two different namespaces never overlap', origin: { namespace: 'a' }, other: { namespace: 'b' }, overlap: false },
    { name: 'rule 1: the same namespace overlaps', origin: { namespace: 'a' }, other: { namespace: 'a' }, overlap: true },
    { name: 'rule 2: disjoint namespaceSelectors do not overlap', origin: { namespaceSelector: { matchLabels: { t: 'x' } } }, other: { namespaceSelector: { matchLabels: { t: 'y' } } }, overlap: false },
    { name: 'rule 3: origin namespace matching the other\'s selector overlaps', origin: { namespace: 'web' }, other: { namespaceSelector: { matchLabels: { team: 'web' } } }, overlap: true },
    { name: 'rule 3: origin namespace not matching the other\'s selector does not overlap', origin: { namespace: 'web' }, other: { namespaceSelector: { matchLabels: { team: 'db' } } }, overlap: false },
    { name: 'rule 3: a namespace that does not exist does not overlap', origin: { namespace: 'ghost' }, other: { namespaceSelector: {} }, overlap: false },
    { name: 'rule 3: an other selector Kubernetes cannot build (unknown operator) matches no namespace', origin: { namespace: 'web' }, other: { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Near', values: ['web'] }] } }, overlap: false },
    { name: 'rule 4 (upstream quirk): other namespace + origin selector is never checked', origin: { namespaceSelector: { matchLabels: { team: 'web' } } }, other: { namespace: 'web' }, overlap: false },
    { name: 'rule 5: cluster-wide sets overlap', origin: {}, other: {}, overlap: true },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isNamespaceOverlapping(set('o', c.origin), set('t', c.other), lookup), c.overlap));
});

describe('TestSidecarSetPodMetadataConflict', () => {
  const base = (patch: SidecarSetSpec['patchPodMetadata']): SidecarSetSpec => ({ selector: { matchLabels: { a: 'b' } }, patchPodMetadata: patch });
  const cases = [
    { name: 'Overwrite against MergePatchJson on the same key conflicts', mine: base([{ patchPolicy: 'Overwrite', annotations: { key1: 'value1' } }]), theirs: base([{ patchPolicy: 'MergePatchJson', annotations: { key1: 'value1' } }]), expect: 1 },
    { name: 'different keys do not conflict', mine: base([{ patchPolicy: 'Retain', annotations: { key1: 'value1' } }]), theirs: base([{ patchPolicy: 'Overwrite', annotations: { key2: 'value2' } }]), expect: 0 },
    { name: 'MergePatchJson on both sides does not conflict', mine: base([{ patchPolicy: 'MergePatchJson', annotations: { 'oom-score': '{"log-agent": 1}' } }]), theirs: base([{ patchPolicy: 'MergePatchJson', annotations: { 'oom-score': '{"envoy": 1}' } }]), expect: 0 },
    { name: 'Retain never conflicts, even with Overwrite', mine: base([{ patchPolicy: 'Retain', annotations: { k: 'v' } }]), theirs: base([{ patchPolicy: 'Overwrite', annotations: { k: 'v' } }]), expect: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(validateSidecarSetConflicts(set('sidecarset2', c.mine), [set('sidecarset1', c.theirs)], noNamespaces).length, c.expect));
  }
});

describe('TestSidecarSetVolumeConflict', () => {
  const sel = { matchLabels: { a: 'b' } };
  const cases = [
    { name: 'different volume names do not conflict', mine: [{ name: 'volume-1' }, { name: 'volume-2' }], theirs: [{ name: 'volume-3' }, { name: 'volume-4' }], expect: 0 },
    {
      name: 'the same name with an equal definition does not conflict',
      mine: [{ name: 'volume-1' }, { name: 'volume-2', hostPath: { path: '/home/work' } }],
      theirs: [{ hostPath: { path: '/home/work' }, name: 'volume-2' }, { name: 'volume-3' }],
      expect: 0,
    },
    {
      name: 'the same name with a different definition conflicts',
      mine: [{ name: 'volume-1' }, { name: 'volume-2', hostPath: { path: '/home/work-1' } }],
      theirs: [{ name: 'volume-2', hostPath: { path: '/home/work-2' } }, { name: 'volume-3' }],
      expect: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateSidecarSetConflicts(set('sidecarset2', { selector: sel, volumes: c.mine }), [set('sidecarset1', { selector: sel, volumes: c.theirs })], noNamespaces);
      assert.equal(errs.length, c.expect);
    });
  }
});
