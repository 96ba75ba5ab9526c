// `kruise-ts inject` decides as a cluster does for a v1alpha1 SidecarSet (spec/openkruise-v1.9.md §2.2, §2.4): the
// cluster path is played over HTTP against the in-process webhook (mutate and validate the SidecarSet as v1alpha1,
// store it through POST /convert to v1beta1, read it back through the informer's cache transform, then /mutate-pod),
// and the CLI's output must be the same pods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import fjp from 'fast-json-patch';
import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { sidecarSetCacheForm } from '../../shared/kube/sidecarset-cache.js';
import { admissionCaches, staticCache } from '../caches.js';
import { makeRoutes } from '../handlers/index.js';
import { decodePatch, review, testApp } from '../test-helpers.js';
import { clusterNamespaces, sidecarSetAsCached } from './cluster-view.js';
import { runCli } from './main.js';

const NS = 'kubernetes.io/metadata.name';
const gates = { PodWebhook: true, KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: true, SidecarSetPatchPodMetadataDefaultsAllowed: false, EnableSortSidecarContainerByName: false, PreDownloadImageForInPlaceUpdate: false, ImageVolume: false, WorkloadSpread: true };
const now = () => new Date('2026-01-01T00:00:00Z');

/** v1alpha1 with both fields: the cluster keeps only the namespace, as a metadata.name selector (namespace wins). */
const sidecarSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'scoped' },
  spec: {
    namespace: 'ns1',
    namespaceSelector: { matchLabels: { env: 'prod' } },
    selector: { matchLabels: { app: 'web' } },
    containers: [{ name: 'side', image: 'busybox:1.36', command: ['sleep', '3600'] }],
  },
};
// ns1 is not env=prod (v1alpha1 read as is would skip it); ns2 is (the dropped selector would pick it).
const namespaces = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1', labels: { env: 'dev' } } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns2', labels: { env: 'prod' } } },
];
const pod = (namespace: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${namespace}`, namespace, labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } });
const pods = [pod('ns1'), pod('ns2'), pod('ns3')];

const apply = <T>(doc: T, patch: string | undefined): T => (patch ? (fjp.applyPatch(structuredClone(doc), decodePatch(patch), false, false).newDocument as T) : doc);
const sidecarSetRequest = { group: 'apps.kruise.io', version: 'v1alpha1' };

/** The cluster: admission over HTTP, storage through /convert, the webhook's cache form, then the pod webhook. */
async function clusterPath(): Promise<unknown[]> {
  const empty = staticCache<SidecarSet & KubernetesObject>([]);
  const nsObjects = clusterNamespaces([...namespaces, ...pods]) as (V1Namespace & KubernetesObject)[];
  const fetchers = { fetchPod: async () => undefined, fetchNode: async () => undefined };
  const bare = admissionCaches({ sidecarSets: empty, namespaces: staticCache(nsObjects), revisions: staticCache([]), configMaps: staticCache([]) }, fetchers as never);
  const admitApp = testApp(makeRoutes({ caches: bare, gates, now, random: () => 0 })).app;
  const ssReview = (object: unknown) => review({ kind: { ...sidecarSetRequest, kind: 'SidecarSet' }, resource: { ...sidecarSetRequest, resource: 'sidecarsets' }, name: 'scoped', object });
  const mutated = await admitApp.inject({ method: 'POST', url: '/mutate-apps-kruise-io-sidecarset', payload: ssReview(sidecarSet) });
  const defaulted = apply(sidecarSet, mutated.json().response.patch);
  const validated = await admitApp.inject({ method: 'POST', url: '/validate-apps-kruise-io-sidecarset', payload: ssReview(defaulted) });
  assert.equal(validated.json().response.allowed, true, validated.body);
  const converted = await admitApp.inject({ method: 'POST', url: '/convert', payload: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u', desiredAPIVersion: 'apps.kruise.io/v1beta1', objects: [defaulted] } } });
  const stored = converted.json().response.convertedObjects[0];
  assert.deepEqual(stored.spec.namespaceSelector, { matchLabels: { [NS]: 'ns1' } }, 'stored as v1beta1, namespace wins');

  const caches = admissionCaches({ sidecarSets: staticCache([sidecarSetCacheForm(stored)]), namespaces: staticCache(nsObjects), revisions: staticCache([]), configMaps: staticCache([]) }, fetchers as never);
  const podApp = testApp(makeRoutes({ caches, gates, now, random: () => 0 })).app;
  const out: unknown[] = [];
  for (const p of pods) {
    const r = await podApp.inject({ method: 'POST', url: '/mutate-pod', payload: review({ namespace: p.metadata.namespace, name: p.metadata.name, resource: { group: '', version: 'v1', resource: 'pods' }, object: p }) });
    out.push(apply(p, r.json().response.patch));
  }
  return out;
}

async function cliPath(): Promise<unknown[]> {
  let stdout = '';
  let stderr = '';
  const input = [sidecarSet, ...namespaces, ...pods].map((d) => yaml.dump(d)).join('---\n');
  const code = await runCli(['inject', '-f', '-'], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: () => input });
  assert.equal(code, 0, stderr);
  return (yaml.loadAll(stdout) as { kind?: string }[]).filter((d) => d?.kind === 'Pod');
}

const containerNames = (p: any): string[] => p.spec.containers.map((c: { name: string }) => c.name);

describe('CLI and cluster agree on a v1alpha1 SidecarSet with spec.namespace and a namespaceSelector', () => {
  it('only the pod in spec.namespace is injected, whatever the dropped selector said, and the pods are identical', async () => {
    const [viaCluster, viaCli] = [await clusterPath(), await cliPath()];
    assert.deepEqual(viaCluster.map(containerNames), [['side', 'app'], ['app'], ['app']]);
    // Same handlers, same pods; only the injection time in the hash annotations differs between the two runs.
    const untimed = (pods: unknown[]) => JSON.parse(JSON.stringify(pods).replace(/\\"updateTimestamp\\":\\"[^\\]*\\"/g, 'T'));
    assert.deepEqual(untimed(viaCli), untimed(viaCluster));
    assert.notDeepEqual(untimed(viaCli), untimed([pod('ns1'), pod('ns2'), pod('ns3')]));
  });
});

describe('cluster-view', () => {
  it('a v1alpha1 SidecarSet is cached as /convert stores it, then in the informer form (selector kept, namespace gone)', () => {
    const cached = sidecarSetAsCached(structuredClone(sidecarSet) as never);
    assert.equal(cached.apiVersion, 'apps.kruise.io/v1alpha1');
    assert.equal(cached.spec?.namespace, undefined);
    assert.deepEqual(cached.spec?.namespaceSelector, { matchLabels: { [NS]: 'ns1' } });
  });

  it('Namespaces get the metadata.name label; default and the namespaces documents are in exist', () => {
    const got = clusterNamespaces([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', labels: { x: 'y' } } }, pod('b') as never, pod('a') as never]);
    assert.deepEqual(got.map((n) => [n.metadata?.name, n.metadata?.labels]), [['a', { x: 'y', [NS]: 'a' }], ['default', { [NS]: 'default' }], ['b', { [NS]: 'b' }]]);
  });
});
