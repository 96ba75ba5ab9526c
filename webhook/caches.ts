// Informer-backed context gatherers for the admission handlers. Handlers read these synchronously on the request path;
// only the CRR handler's Pod/Node lookups go to the API server (watching every Pod cluster-wide would cost far more
// memory than the rare CRR create saves in latency).
import type { V1ConfigMap, V1ControllerRevision, V1Namespace, V1Node, KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { Pod } from '../shared/api/meta.js';
import type { SidecarSet } from '../shared/api/sidecarset.js';
import type { Kube } from '../shared/kube/client.js';
import { startInformer, type Cache } from '../shared/kube/informer.js';
import { makeListWatch } from '../shared/kube/typed-list-watch.js';

export const KRUISE_CONFIGURATION = 'kruise-configuration';
export const PATCH_METADATA_WHITELIST_KEY = 'SidecarSet_PatchPodMetadata_WhiteList';
const SIDECARSET_NAME_LABEL = 'kruise.io/sidecarset-name';
const CUSTOM_VERSION_LABEL = 'apps.kruise.io/sidecarset-custom-version';

export interface AdmissionCaches {
  /**
   * Every SidecarSet, in name order (spec §9 note 2: upstream uses informer order; we pick a stable one). The same
   * frozen array until a SidecarSet changes, so per-review work can be keyed on it.
   */
  sidecarSets(): readonly SidecarSet[];
  namespaceLabels(name: string): Record<string, string> | undefined;
  /** ControllerRevision in the kruise namespace by name. */
  revisionByName(name: string): V1ControllerRevision | undefined;
  /** Highest `.revision` among the SidecarSet's revisions carrying that custom version label (spec §2.3). */
  revisionByCustomVersion(sidecarSetName: string, customVersion: string): V1ControllerRevision | undefined;
  /** Every revision of the SidecarSet carrying that custom version label, in cache order. */
  revisionsByCustomVersion(sidecarSetName: string, customVersion: string): V1ControllerRevision[];
  /** Raw whitelist JSON from ConfigMap kruise-configuration, or undefined when the map or key is absent. */
  patchMetadataWhitelist(): string | undefined;
  fetchPod(namespace: string, name: string): Promise<Pod | undefined>;
  fetchNode(name: string): Promise<V1Node | undefined>;
  /** null when every informer has listed once, else which are still waiting. */
  notSynced(): string | null;
}

export interface CacheSet {
  sidecarSets: Cache<SidecarSet>;
  namespaces: Cache<V1Namespace>;
  revisions: Cache<V1ControllerRevision>;
  configMaps: Cache<V1ConfigMap>;
}

export interface Fetchers {
  fetchPod(namespace: string, name: string): Promise<Pod | undefined>;
  fetchNode(name: string): Promise<V1Node | undefined>;
}

/** Lookups over already-running caches; pure apart from reading them, so tests pass static caches. */
export function admissionCaches(caches: CacheSet, fetchers: Fetchers): AdmissionCaches {
  let sorted: readonly SidecarSet[] | undefined;
  caches.sidecarSets.onChange(() => (sorted = undefined));
  const byCustomVersion = (sidecarSetName: string, customVersion: string) =>
    caches.revisions.list().filter((r) => {
      const labels = r.metadata?.labels ?? {};
      return labels[SIDECARSET_NAME_LABEL] === sidecarSetName && labels[CUSTOM_VERSION_LABEL] === customVersion;
    });
  const byName = (a: SidecarSet, b: SidecarSet) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1);
  return {
    sidecarSets: () => (sorted ??= Object.freeze([...caches.sidecarSets.list()].sort(byName))),
    namespaceLabels: (name) => {
      const ns = caches.namespaces.get(name);
      return ns ? (ns.metadata?.labels ?? {}) : undefined;
    },
    revisionByName: (name) => caches.revisions.list().find((r) => r.metadata?.name === name),
    revisionByCustomVersion: (sidecarSetName, customVersion) => {
      let best: V1ControllerRevision | undefined;
      for (const r of byCustomVersion(sidecarSetName, customVersion)) if (!best || r.revision > best.revision) best = r;
      return best;
    },
    revisionsByCustomVersion: (sidecarSetName, customVersion) => byCustomVersion(sidecarSetName, customVersion),
    patchMetadataWhitelist: () => caches.configMaps.list().find((c) => c.metadata?.name === KRUISE_CONFIGURATION)?.data?.[PATCH_METADATA_WHITELIST_KEY],
    fetchPod: fetchers.fetchPod,
    fetchNode: fetchers.fetchNode,
    notSynced: () => {
      const waiting = Object.entries(caches).filter(([, c]) => !c.isSynced()).map(([n]) => n);
      return waiting.length ? `caches not synced: ${waiting.join(', ')}` : null;
    },
  };
}

/** A cache over a fixed list, for tests and the benchmark. */
export function staticCache<T extends KubernetesObject>(items: T[]): Cache<T> {
  return {
    synced: Promise.resolve(),
    isSynced: () => true,
    list: () => items,
    get: (key) => items.find((i) => (i.metadata?.namespace ? `${i.metadata.namespace}/${i.metadata.name}` : i.metadata?.name) === key),
    onChange: () => {},
  };
}

const isNotFound = (err: unknown) => (err as { code?: number })?.code === 404;

/** Starts the four informers (sidecarsets, namespaces, controllerrevisions and the config map in the kruise namespace). */
export function startAdmissionCaches(kube: Kube, namespace: string, signal: AbortSignal, log: Logger): AdmissionCaches {
  const opts = { log };
  const fieldSelector = `metadata.name=${KRUISE_CONFIGURATION}`;
  const caches: CacheSet = {
    sidecarSets: startInformer(
      makeListWatch<SidecarSet & KubernetesObject>(kube.kc, '/apis/apps.kruise.io/v1alpha1/sidecarsets', async () =>
        (await kube.custom.listClusterCustomObject({ group: 'apps.kruise.io', version: 'v1alpha1', plural: 'sidecarsets' })) as KubernetesListObject<SidecarSet & KubernetesObject>),
      signal, { log: log.child({ informer: 'sidecarsets' }) },
    ),
    namespaces: startInformer(makeListWatch(kube.kc, '/api/v1/namespaces', () => kube.core.listNamespace()), signal, { log: log.child({ informer: 'namespaces' }) }),
    revisions: startInformer(
      makeListWatch(kube.kc, `/apis/apps/v1/namespaces/${namespace}/controllerrevisions`, () => kube.apps.listNamespacedControllerRevision({ namespace })),
      signal, { log: log.child({ informer: 'controllerrevisions' }) },
    ),
    configMaps: startInformer(
      makeListWatch(kube.kc, `/api/v1/namespaces/${namespace}/configmaps`, () => kube.core.listNamespacedConfigMap({ namespace, fieldSelector }), { fieldSelector }),
      signal, { ...opts, log: log.child({ informer: 'configmaps' }) },
    ),
  };
  return admissionCaches(caches, {
    fetchPod: async (ns, name) => {
      try { return await kube.core.readNamespacedPod({ namespace: ns, name }); } catch (err) { if (isNotFound(err)) return undefined; throw new Error(`get pod ${ns}/${name}`, { cause: err }); }
    },
    fetchNode: async (name) => {
      try { return await kube.core.readNode({ name }); } catch (err) { if (isNotFound(err)) return undefined; throw new Error(`get node ${name}`, { cause: err }); }
    },
  });
}
