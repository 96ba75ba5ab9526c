import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import type { SidecarContainer, SidecarSet, SidecarSetSpec } from '../../api/sidecarset.js';
import { formatViolations } from '../../errors.js';
import { defaultSidecarSet } from '../sidecarset-defaults.js';
import { validateSidecarSet, validateSidecarSetSpec, validateSidecarSetUpdate, type SidecarSetValidationContext } from './sidecarset.js';

const revisions = new Set(['test-sidecarset-01234', 'test-sidecarset-56789']);
const ctx: SidecarSetValidationContext = {
  sidecarSets: [],
  namespaceLabels: () => undefined,
  revisionExists: (ref) => ref.revisionName !== undefined && revisions.has(ref.revisionName),
  patchMetadataWhitelist: undefined,
  // upstream TestValidateSidecarSet turns SidecarSetPatchPodMetadataDefaultsAllowed on
  patchMetadataDefaultsAllowed: true,
};

/** A sidecar as the mutating webhook leaves it. */
const sidecar = (over: Partial<SidecarContainer> = {}): SidecarContainer => ({
  name: 'test-sidecar',
  image: 'test-image',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
  podInjectPolicy: 'BeforeAppContainer',
  shareVolumePolicy: { type: 'disabled' },
  upgradeStrategy: { upgradeType: 'ColdUpgrade' },
  ...over,
});
const set = (spec: SidecarSetSpec, name = 'test-sidecarset'): SidecarSet => ({ metadata: { name }, spec });
const selector = { matchLabels: { a: 'b' } };
const notUpdate = { type: 'NotUpdate' };

describe('TestValidateSidecarSet (expected error counts from upstream)', () => {
  const cases: { name: string; obj: SidecarSet; errs: number }[] = [
    { name: 'missing-selector: no selector is one error', obj: set({ updateStrategy: notUpdate, containers: [sidecar()] }), errs: 1 },
    {
      name: 'wrong-updateStrategy: a duplicated scatter term is one error',
      obj: set({
        selector,
        updateStrategy: { type: 'RollingUpdate', scatterStrategy: [{ key: 'key-1', value: 'value-1' }, { key: 'key-1', value: 'value-1' }] },
        containers: [sidecar()],
      }),
      errs: 1,
    },
    {
      name: 'wrong-selector: an invalid NotIn value is reported by validation and by conversion',
      obj: set({
        selector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'app-name', operator: 'NotIn', values: ['app-group', 'app-risk-'] }] },
        containers: [sidecar({ shareVolumePolicy: { type: 'enabled' } })],
      }),
      errs: 2,
    },
    {
      name: 'wrong-namespaceSelector: the same bad value in namespaceSelector is two errors',
      obj: set({
        selector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'app-name', operator: 'NotIn', values: ['app-group', 'app-risk'] }] },
        namespaceSelector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'app-name', operator: 'NotIn', values: ['app-group', 'app-risk-'] }] },
        containers: [sidecar({ shareVolumePolicy: { type: 'enabled' } })],
      }),
      errs: 2,
    },
    {
      name: 'wrong-namespace: namespace together with namespaceSelector is one error',
      obj: set({ selector, namespace: 'ns-test', namespaceSelector: { matchLabels: { a: 'b' } }, containers: [sidecar()] }),
      errs: 1,
    },
    {
      name: 'wrong-initContainer: an init container without image is one error',
      obj: set({ selector, updateStrategy: notUpdate, initContainers: [{ name: 'test-sidecar', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] }),
      errs: 1,
    },
    { name: 'missing-container: neither containers nor initContainers is one error', obj: set({ selector, updateStrategy: notUpdate }), errs: 1 },
    {
      name: 'wrong-containers: a missing shareVolumePolicy is one error',
      obj: set({ selector, updateStrategy: notUpdate, containers: [sidecar({ shareVolumePolicy: undefined })] }),
      errs: 1,
    },
    {
      name: 'wrong-volumes: a volume without a source is one error',
      obj: set({
        selector,
        updateStrategy: notUpdate,
        containers: [sidecar()],
        volumes: [
          { name: 'test-volume' },
          { name: 'istio-token', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { audience: 'istio-ca', expirationSeconds: 43200, path: 'istio-token' } }] } },
        ],
      }),
      errs: 1,
    },
    {
      name: 'wrong-volumeDevice-volumes: a volumeDevice naming no volume is one error',
      obj: set({ selector, updateStrategy: notUpdate, containers: [sidecar({ volumeDevices: [{ name: 'disk0', devicePath: '/dev/nvme1' }] })] }),
      errs: 1,
    },
    {
      name: 'right-volumeDevice-volumes: a volumeDevice on a PVC volume is fine',
      obj: set({
        selector,
        updateStrategy: notUpdate,
        containers: [sidecar({ volumeDevices: [{ name: 'disk0', devicePath: '/dev/nvme1' }] })],
        volumes: [{ name: 'disk0', persistentVolumeClaim: { claimName: 'pvc-0' } }],
      }),
      errs: 0,
    },
    {
      name: 'volumeDevice-volumeMount-path-conflict: the shared path is reported on both sides',
      obj: set({
        selector,
        updateStrategy: notUpdate,
        containers: [
          sidecar({ volumeDevices: [{ name: 'disk0', devicePath: '/home/admin/log' }], volumeMounts: [{ name: 'log', mountPath: '/home/admin/log' }] }),
        ],
        volumes: [
          { name: 'disk0', persistentVolumeClaim: { claimName: 'pvc-0' } },
          { name: 'log', emptyDir: {} },
        ],
      }),
      errs: 2,
    },
    {
      name: 'wrong-metadata: the same annotation key in two patch entries is one error',
      obj: set({
        selector,
        updateStrategy: notUpdate,
        containers: [sidecar()],
        patchPodMetadata: [
          { annotations: { key1: 'value1' }, patchPolicy: 'MergePatchJson' },
          { annotations: { key1: 'value1' }, patchPolicy: 'Overwrite' },
        ],
      }),
      errs: 1,
    },
    {
      name: 'wrong-name-injectionStrategy: an unknown customVersion is one error',
      obj: set({ selector, updateStrategy: notUpdate, containers: [sidecar()], injectionStrategy: { revision: { customVersion: 'normal-sidecarset-01234' } } }),
      errs: 1,
    },
    {
      name: 'not-existing-injectionStrategy: an unknown revisionName is one error',
      obj: set({
        selector,
        updateStrategy: notUpdate,
        containers: [sidecar()],
        injectionStrategy: { revision: { revisionName: 'test-sidecarset-678235', policy: 'Always' } },
      }),
      errs: 1,
    },
    {
      // kruise-ts updates native sidecars in place (docs/compatibility.md); OpenKruise refuses this with one error.
      name: 'a native sidecar init container with RollingUpdate is accepted (kruise-ts)',
      obj: set({ selector, updateStrategy: { type: 'RollingUpdate' }, initContainers: [sidecar({ restartPolicy: 'Always' })] }),
      errs: 0,
    },
    {
      name: 'a HotUpgrade native sidecar with RollingUpdate is one error',
      obj: set({ selector, updateStrategy: { type: 'RollingUpdate' },
        initContainers: [sidecar({ restartPolicy: 'Always', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'busybox:empty' } })] }),
      errs: 1,
    },
    {
      name: 'an existing revisionName with an unknown policy is one error',
      obj: set({ selector, updateStrategy: notUpdate, containers: [sidecar()], injectionStrategy: { revision: { revisionName: 'test-sidecarset-01234', policy: 'Sometimes' } } }),
      errs: 1,
    },
    {
      name: 'partition together with an update selector, and a bad maxUnavailable, are two errors',
      obj: set({ selector, updateStrategy: { type: 'RollingUpdate', partition: '10%', maxUnavailable: 'abc', selector: { matchLabels: { x: 'y' } } }, containers: [sidecar()] }),
      errs: 2,
    },
    {
      name: 'a transferEnv fieldRef on metadata.name is one error',
      obj: set({
        selector,
        updateStrategy: notUpdate,
        containers: [sidecar({ transferEnv: [{ sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }, envName: 'X' }] })],
      }),
      errs: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateSidecarSetSpec(c.obj, ctx);
      assert.equal(errs.length, c.errs, errs.length ? formatViolations(errs) : 'no errors');
    });
  }
});

describe('validateSidecarSet', () => {
  it('renders the missing-selector denial exactly as upstream', () => {
    const errs = validateSidecarSet(set({ updateStrategy: notUpdate, containers: [sidecar()] }), undefined, ctx);
    assert.equal(formatViolations(errs), 'spec.selector: Required value: no selector defined for SidecarSet');
  });

  it('rejects a name with characters outside [a-zA-Z0-9-]', () => {
    const errs = validateSidecarSet(set({ selector, containers: [sidecar()] }, 'bad_name'), undefined, ctx);
    assert.deepEqual(errs.map((e) => e.field), ['metadata.name']);
  });

  it('runs the conflict phase only when the object itself is valid', () => {
    const other = set({ selector, containers: [sidecar()] }, 'other');
    const withOther = { ...ctx, sidecarSets: [other] };
    const invalid = validateSidecarSet(set({ containers: [sidecar()] }), undefined, withOther);
    assert.deepEqual(invalid.map((e) => e.field), ['spec.selector']);
    const conflicting = validateSidecarSet(set({ selector, containers: [sidecar()] }), undefined, withOther);
    assert.equal(formatViolations(conflicting), 'spec.containers: Invalid value: "test-sidecar": container test-sidecar already exist in other');
  });

  it('requires the patch metadata whitelist when the defaults gate is off', () => {
    const obj = set({ selector, containers: [sidecar()], patchPodMetadata: [{ annotations: { k: 'v' }, patchPolicy: 'Retain' }] });
    const errs = validateSidecarSet(obj, undefined, { ...ctx, patchMetadataDefaultsAllowed: false });
    assert.equal(formatViolations(errs), 'spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found');
  });

  it('on UPDATE forbids adding a container name', () => {
    const old = set({ selector, containers: [sidecar()] });
    const obj = set({ selector, containers: [sidecar(), sidecar({ name: 'new-one' })] });
    assert.equal(formatViolations(validateSidecarSet(obj, old, ctx)), 'spec.containers.name: Invalid value: "new-one": container new-one is not found');
  });
});

describe('hot upgrade: upgradeType is immutable', () => {
  const cases = [
    { name: 'changing ColdUpgrade to HotUpgrade is one error', before: 'ColdUpgrade', after: 'HotUpgrade', errs: 1 },
    { name: 'keeping HotUpgrade is fine', before: 'HotUpgrade', after: 'HotUpgrade', errs: 0 },
    { name: 'an old object without upgradeType may gain one', before: undefined, after: 'HotUpgrade', errs: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const old = set({ selector, containers: [sidecar({ upgradeStrategy: { upgradeType: c.before } })] });
      const obj = set({ selector, containers: [sidecar({ upgradeStrategy: { upgradeType: c.after, hotUpgradeEmptyImage: 'empty:1' } })] });
      assert.equal(validateSidecarSetUpdate(obj, old).length, c.errs);
    });
  }
});

/** The fields the SidecarSet mutating webhook (owned elsewhere) fills and this validator requires. */

describe('every SidecarSet example validates after defaulting', () => {
  // The e2e examples and the shared upstream examples (the latter when present on this machine).
  const dirs = [new URL('../../../e2e/cluster/examples/', import.meta.url), new URL('file:///work/shared/examples/')].filter((d) => existsSync(d));
  const examples = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) =>
        yaml.loadAll(readFileSync(new URL(f, dir), 'utf8')).filter((d): d is SidecarSet => (d as SidecarSet | null)?.kind === 'SidecarSet').map((d) => ({ f: `${dir.href.includes('/e2e/') ? 'e2e' : 'shared'}/${f}`, d })),
      ),
  );
  it('finds the examples', () => assert.ok(examples.length > 0));
  for (const { f, d } of examples) {
    it(`${f}: ${d.metadata?.name}`, () => {
      // Each example stands alone, so conflicts with the others are not part of this check.
      const errs = validateSidecarSet(defaultSidecarSet(d), undefined, { ...ctx, revisionExists: () => true });
      assert.deepEqual(errs, [], formatViolations(errs));
    });
  }
});
