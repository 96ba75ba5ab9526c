import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionCaches, staticCache, KRUISE_CONFIGURATION, PATCH_METADATA_WHITELIST_KEY } from './caches.js';
import { sidecarSetValidationContext } from './handlers/index.js';
import type { Cache } from '../shared/kube/informer.js';

const rev = (name: string, set: string, version: string | undefined, revision: number) => ({
  metadata: { name, namespace: 'kruise-system', labels: { 'kruise.io/sidecarset-name': set, ...(version ? { 'apps.kruise.io/sidecarset-custom-version': version } : {}) } },
  revision,
});

function build(overrides: Partial<Record<'sidecarSets' | 'namespaces' | 'revisions' | 'configMaps', Cache<any>>> = {}) {
  return admissionCaches(
    {
      sidecarSets: staticCache([{ metadata: { name: 'zeta' } }, { metadata: { name: 'alpha' } }, { metadata: { name: 'mid' } }]),
      namespaces: staticCache([{ metadata: { name: 'default', labels: { team: 'a' } } }, { metadata: { name: 'bare' } }]),
      revisions: staticCache([rev('s-1', 's', 'v1', 1), rev('s-3', 's', 'v1', 3), rev('s-2', 's', 'v1', 2), rev('t-9', 't', 'v1', 9), rev('s-4', 's', undefined, 4)] as any),
      configMaps: staticCache([{ metadata: { name: KRUISE_CONFIGURATION, namespace: 'kruise-system' }, data: { [PATCH_METADATA_WHITELIST_KEY]: '{"rules":[]}' } }]),
      ...overrides,
    },
    { fetchPod: async () => undefined, fetchNode: async () => undefined },
  );
}

test('SidecarSets come back in name order', () => {
  assert.deepEqual(build().sidecarSets().map((s) => s.metadata?.name), ['alpha', 'mid', 'zeta']);
});

test('namespace labels: known namespace, namespace without labels, unknown namespace', () => {
  const c = build();
  assert.deepEqual(c.namespaceLabels('default'), { team: 'a' });
  assert.deepEqual(c.namespaceLabels('bare'), {});
  assert.equal(c.namespaceLabels('nope'), undefined);
});

test('a custom version selects the highest revision of that SidecarSet only', () => {
  const c = build();
  assert.equal(c.revisionByCustomVersion('s', 'v1')?.metadata?.name, 's-3');
  assert.equal(c.revisionByCustomVersion('s', 'v2'), undefined);
  assert.equal(c.revisionByName('t-9')?.revision, 9);
});

test('the whitelist is read from kruise-configuration, absent when the map is missing', () => {
  assert.equal(build().patchMetadataWhitelist(), '{"rules":[]}');
  assert.equal(build({ configMaps: staticCache([]) }).patchMetadataWhitelist(), undefined);
});

test('readiness names the caches still waiting for their first list', () => {
  const waiting: Cache<any> = { ...staticCache([]), isSynced: () => false };
  assert.equal(build().notSynced(), null);
  assert.equal(build({ namespaces: waiting, revisions: waiting }).notSynced(), 'caches not synced: namespaces, revisions');
});

test('the SidecarSet validation context answers revisionExists by name or custom version', () => {
  const ctx = sidecarSetValidationContext({ caches: build(), gates: { KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: false, SidecarSetPatchPodMetadataDefaultsAllowed: true }, now: () => new Date(), random: () => 0 });
  assert.equal(ctx.revisionExists({ sidecarSetName: 's', revisionName: 's-2' }), true);
  assert.equal(ctx.revisionExists({ sidecarSetName: 's', revisionName: 'missing' }), false);
  assert.equal(ctx.revisionExists({ sidecarSetName: 's', customVersion: 'v1' }), true);
  assert.equal(ctx.revisionExists({ sidecarSetName: 't', customVersion: 'v2' }), false);
  assert.equal(ctx.revisionExists({ sidecarSetName: 's' }), false);
  assert.equal(ctx.patchMetadataDefaultsAllowed, true);
  assert.equal(ctx.sidecarSets.length, 3);
});
