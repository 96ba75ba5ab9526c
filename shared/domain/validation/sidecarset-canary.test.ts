// Port of upstream HEAD sidecarset/validating TestValidateSidecarSetCanaryAnnotations, plus the canary's conflict rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SidecarSet } from '../../api/sidecarset.js';
import { formatViolations } from '../../errors.js';
import { validateSidecarSetCanary } from './sidecarset-canary.js';
import { validateSidecarSetConflicts } from './sidecarset-conflicts.js';

const canary = (name: string, base: string, type = 'NotUpdate'): SidecarSet => ({
  metadata: { name, annotations: { 'apps.kruise.io/sidecarset-canary': 'true', 'apps.kruise.io/sidecarset-base': base } },
  spec: { updateStrategy: { type } },
});
const plain = (name: string): SidecarSet => ({ metadata: { name } });

describe('TestValidateSidecarSetCanaryAnnotations', () => {
  const cases: { name: string; obj: SidecarSet; old?: SidecarSet; stored: SidecarSet[]; details: string[] }[] = [
    { name: 'non-canary sidecarset', obj: { metadata: { name: 'test-sidecarset', annotations: {} } }, stored: [], details: [] },
    { name: 'canary sidecarset with base set to itself', obj: canary('test-sidecarset', 'test-sidecarset'), stored: [plain('test-sidecarset')], details: ['base sidecarSet cannot be itself'] },
    { name: 'canary sidecarset with valid base that exists', obj: canary('test-sidecarset', 'base-sidecarset'), stored: [plain('base-sidecarset')], details: [] },
    {
      name: 'canary sidecarset with valid base that exists, but base is canary',
      obj: canary('test-sidecarset', 'base1-sidecarset'),
      stored: [canary('base1-sidecarset', 'other-base-sidecarset')],
      details: ['base sidecarSet cannot be canary'],
    },
    {
      name: 'canary sidecarset with base that does not exist',
      obj: canary('test-sidecarset', 'nonexistent-sidecarset'),
      stored: [],
      details: ['fetch base sidecarSet[nonexistent-sidecarset] failed: sidecarsets.apps.kruise.io "nonexistent-sidecarset" not found'],
    },
    {
      name: 'updating canary sidecarset with unchanged base',
      obj: canary('test-sidecarset', 'base-sidecarset'),
      old: canary('test-sidecarset', 'base-sidecarset'),
      stored: [plain('base-sidecarset')],
      details: [],
    },
    {
      name: 'updating canary sidecarset with changed base',
      obj: canary('test-sidecarset', 'new-base-sidecarset'),
      old: canary('test-sidecarset', 'old-base-sidecarset'),
      stored: [plain('new-base-sidecarset'), plain('old-base-sidecarset')],
      details: ['annotations[apps.kruise.io/sidecarset-base] is immutable'],
    },
    {
      name: 'canary sidecarset with RollingUpdate strategy',
      obj: canary('test-sidecarset', 'base-sidecarset', 'RollingUpdate'),
      stored: [plain('base-sidecarset')],
      details: ['RollingUpdate is not supported for canary sidecarSet'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateSidecarSetCanary(c.obj, c.old, c.stored);
      assert.deepEqual(errs.map((e) => e.detail), c.details, formatViolations(errs));
      for (const e of errs) assert.equal(e.field, 'metadata');
    });
  }
});

describe('canary conflicts', () => {
  const withSidecar = (s: SidecarSet): SidecarSet => ({ ...s, spec: { ...s.spec, selector: { matchLabels: { app: 'a' } }, containers: [{ name: 'proxy', image: 'p:2' }] } });
  it('a canary may carry its base\'s container names; another SidecarSet still conflicts', () => {
    const base = withSidecar(plain('base'));
    const other = withSidecar(plain('other'));
    const c = withSidecar(canary('canary', 'base'));
    const noLabels = () => undefined;
    assert.deepEqual(validateSidecarSetConflicts(c, [base], noLabels), []);
    assert.equal(formatViolations(validateSidecarSetConflicts(c, [base, other], noLabels)), 'spec.containers: Invalid value: "proxy": container proxy already exist in other');
  });
});
