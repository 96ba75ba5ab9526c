import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionCaches, staticCache, KRUISE_CONFIGURATION, PATCH_METADATA_WHITELIST_KEY } from './caches.js';
import { makeRoutes, podInjectionContext, sidecarSetValidationContext } from './handlers/index.js';
import { mutatePodOnCreate } from '../shared/domain/pod-mutation.js';
import type { Cache, ChangeVerb } from '../shared/kube/informer.js';

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
  const ctx = sidecarSetValidationContext({ caches: build(), gates: { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: false, SidecarSetPatchPodMetadataDefaultsAllowed: true, EnableSortSidecarContainerByName: false, PreDownloadImageForInPlaceUpdate: false, ImageVolume: false, WorkloadSpread: true }, now: () => new Date(), random: () => 0 });
  assert.equal(ctx.revisionExists({ sidecarSetName: 's', revisionName: 's-2' }), true);
  assert.equal(ctx.revisionExists({ sidecarSetName: 's', revisionName: 'missing' }), false);
  assert.equal(ctx.revisionExists({ sidecarSetName: 's', customVersion: 'v1' }), true);
  assert.equal(ctx.revisionExists({ sidecarSetName: 't', customVersion: 'v2' }), false);
  assert.equal(ctx.revisionExists({ sidecarSetName: 's' }), false);
  assert.equal(ctx.patchMetadataDefaultsAllowed, true);
  assert.equal(ctx.sidecarSets.length, 3);
});

/** A cache whose contents the test replaces, notifying listeners as an informer does. */
function liveCache<T extends { metadata?: { name?: string } }>(initial: T[]) {
  let items = initial;
  const listeners: ((o: T, verb: ChangeVerb) => void)[] = [];
  const cache: Cache<any> = { ...staticCache([]), list: () => items, onChange: (cb) => void listeners.push(cb) };
  return { cache, replace(next: T[], changed: T) { items = next; listeners.forEach((l) => l(changed, 'update')); } };
}

test('the sorted SidecarSet view is one frozen array until a SidecarSet changes, then rebuilt', () => {
  const live = liveCache([{ metadata: { name: 'b', resourceVersion: '1' } }, { metadata: { name: 'a', resourceVersion: '1' } }]);
  const c = build({ sidecarSets: live.cache });
  const first = c.sidecarSets();
  assert.equal(Object.isFrozen(first), true);
  assert.equal(c.sidecarSets(), first);
  const changed = { metadata: { name: 'a', resourceVersion: '2' } };
  live.replace([{ metadata: { name: 'b', resourceVersion: '1' } }, changed], changed);
  const second = c.sidecarSets();
  assert.notEqual(second, first);
  assert.deepEqual(second.map((s) => [s.metadata?.name, s.metadata?.resourceVersion]), [['a', '2'], ['b', '1']]);
});

test('pod injection follows a SidecarSet update delivered through the caches', () => {
  const sidecarSet = (rv: string, app: string) => ({
    metadata: { name: 'log', resourceVersion: rv, annotations: { 'kruise.io/sidecarset-hash': 'h', 'kruise.io/sidecarset-hash-without-image': 'w' } },
    spec: { selector: { matchLabels: { app } }, containers: [{ name: 'log-agent', image: 'agent:1' }] },
  });
  const v1 = sidecarSet('1', 'web');
  const live = liveCache([v1]);
  const deps = { caches: build({ sidecarSets: live.cache }), gates: { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: false, SidecarSetPatchPodMetadataDefaultsAllowed: false, EnableSortSidecarContainerByName: false, PreDownloadImageForInPlaceUpdate: false, ImageVolume: false, WorkloadSpread: true }, now: () => new Date(0), random: () => 0 };
  const pod = { metadata: { namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } };
  const req = { uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, operation: 'CREATE' as const, namespace: 'default', object: pod };
  const inject = () => mutatePodOnCreate(pod, podInjectionContext(deps, req)).spec!.containers.map((c) => c.name);
  assert.deepEqual(inject(), ['app', 'log-agent']);
  const v2 = sidecarSet('2', 'api');
  live.replace([v2], v2);
  assert.deepEqual(inject(), ['app']);
  const v3 = sidecarSet('3', 'web');
  live.replace([v3], v3);
  assert.deepEqual(inject(), ['app', 'log-agent']);
});

/** A SidecarSet cache that has not listed yet; `sync()` delivers its list (as after /convert became reachable). */
function unsyncedCache(items: any[]) {
  let synced = false;
  let resolve!: () => void;
  const cache: Cache<any> = { ...staticCache(items), synced: new Promise<void>((r) => (resolve = r)), isSynced: () => synced };
  return { cache, sync() { synced = true; resolve(); } };
}

test('readiness does not wait for the SidecarSets (they may list only through /convert); the full health still names them', () => {
  const c = build({ sidecarSets: unsyncedCache([]).cache });
  assert.equal(c.readinessHealth.notSynced(), null);
  assert.equal(c.notSynced(), 'caches not synced: sidecarSets');
  const namespaces = unsyncedCache([]);
  assert.equal(build({ namespaces: namespaces.cache }).readinessHealth.notSynced(), 'caches not synced: namespaces');
});

test('sidecarSetsSynced: at once when listed, when the list comes, or an error after the wait', async () => {
  await build().sidecarSetsSynced(1);
  const late = unsyncedCache([]);
  const waiting = build({ sidecarSets: late.cache }).sidecarSetsSynced(60_000);
  late.sync();
  await waiting;
  await assert.rejects(build({ sidecarSets: unsyncedCache([]).cache }).sidecarSetsSynced(1), /the SidecarSet cache has not listed within 1 ms/);
});

test('a pod review waits for the SidecarSet cache and injects what it lists; a SidecarSet review too', async () => {
  const set = { metadata: { name: 'log', annotations: { 'kruise.io/sidecarset-hash': 'h', 'kruise.io/sidecarset-hash-without-image': 'w' } },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'log-agent', image: 'agent:1' }] } };
  const late = unsyncedCache([set]);
  const gates = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: false, SidecarSetPatchPodMetadataDefaultsAllowed: false, EnableSortSidecarContainerByName: false, PreDownloadImageForInPlaceUpdate: false, ImageVolume: false, WorkloadSpread: true };
  const routes = makeRoutes({ caches: build({ sidecarSets: late.cache }), gates, now: () => new Date(0), random: () => 0 });
  const route = (path: string) => routes.find((r) => r.path === path)!;
  const pod = { metadata: { namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } };
  const answer = route('/mutate-pod').handler({ uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, operation: 'CREATE', namespace: 'default', object: pod } as any);
  const validation = route('/validate-apps-kruise-io-sidecarset').handler({ uid: 'v', kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'SidecarSet' }, resource: { group: 'apps.kruise.io', version: 'v1beta1', resource: 'sidecarsets' }, operation: 'CREATE', object: set } as any);
  let settled = false;
  void Promise.resolve(answer).then(() => (settled = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(settled, false, 'no answer before the SidecarSet cache has listed');
  late.sync();
  const r = await answer as { allowed: boolean; patch?: string };
  assert.equal(r.allowed, true);
  assert.match(Buffer.from(r.patch ?? '', 'base64').toString(), /log-agent/);
  assert.ok(await validation);
});
